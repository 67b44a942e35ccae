import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import request from 'supertest';
import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { greetingManifest, writePluginDir } from '../support/plugin-dirs';
import { launchChromium, screenshot, signIn, text, visit, watchedPage } from './support/browser';

// The functions given to page.waitForFunction run in the browser.
declare const document: any;

/**
 * The console's Plugins page in a real Chromium against a gateway with plugins in each status: `greeter` (a load
 * path, active, a tool and a secret in its config), `broken` (throws in register: failed), `loose` (a world-writable
 * directory: refused) and `stash` (installed in <stateDir>/extensions/, so disabled until enabled). An admin enables
 * `stash` from the page, a write against a revision that changed meanwhile is refused with 412 and shown, and a
 * viewer gets no working switch. Screenshots in test-output/console/ (see console.system-spec.ts).
 */

jest.setTimeout(90_000);

const ADMIN = 'console-plugins-admin-token-3c2b1a';
const OPERATOR = 'console-plugins-operator-token-6f5e4d';
const VIEWER = 'console-plugins-viewer-token-9a8b7c';
const SIGNING_KEY = 'greeter-signing-key-value-1d2c3b4a';
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

const GREETER_CODE = `module.exports = {
  register(api) {
    api.registerTool({
      name: 'greet',
      description: 'Says hello',
      parameters: { type: 'object', properties: {} },
      execute: () => ({ text: (api.config().greeting || 'hello') }),
    });
  },
};
`;

const CONFIG = `{
  gateway: { admin: { tokens: [
    { name: "ops", token: "${ADMIN}", role: "admin" },
    { name: "oncall", token: "${OPERATOR}", role: "operator" },
    { name: "dash", token: "${VIEWER}", role: "viewer" },
  ] } },
  models: { providers: { fake: { api: "openai-chat", baseUrl: "http://127.0.0.1:9/v1" } } },
  agents: { list: [{ id: "main", default: true, model: "fake/gpt-test" }] },
  plugins: {
    load: { paths: ["./plugins"] },
    entries: { greeter: { config: { greeting: "hi there", signingKey: "\${GREETER_SIGNING_KEY}", level: "low" } } },
  },
}`;

interface PluginView {
  id: string;
  status: string;
  reason?: string;
  errors: string[];
}

describe('web console: the Plugins page (system)', () => {
  let gw: TestGateway;
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
    gw = await startTestGateway(CONFIG, {
      env: { GREETER_SIGNING_KEY: SIGNING_KEY },
      beforeStart: async (stateDir) => {
        const plugins = path.join(path.dirname(stateDir), 'plugins');
        await writePluginDir(path.join(plugins, 'greeter'), { manifest: greetingManifest('greeter'), files: { 'index.js': GREETER_CODE } });
        await writePluginDir(path.join(plugins, 'broken'), {
          manifest: greetingManifest('broken', { contracts: {} }),
          files: { 'index.js': "module.exports = { register() { throw new Error('the broken plugin cannot start'); } };\n" },
        });
        await writePluginDir(path.join(plugins, 'loose'), { manifest: greetingManifest('loose', { contracts: {} }) });
        await fs.chmod(path.join(plugins, 'loose'), 0o777);
        await writePluginDir(path.join(stateDir, 'extensions', 'stash'), { manifest: greetingManifest('stash', { contracts: {} }) });
      },
    });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await gw?.stop();
  });

  async function signedIn(token: string): Promise<{ page: Page; problems: string[] }> {
    const watched = await watchedPage(browser, gw.url);
    await watched.page.goto(`${gw.url}/console/`);
    await signIn(watched.page, token);
    return watched;
  }
  const plugins = async (): Promise<PluginView[]> =>
    (await request(gw.url).get('/admin/plugins').set(bearer(VIEWER)).expect(200)).body.plugins;
  const rowText = (page: Page, id: string) => text(page, `#plugins-list tr[data-plugin="${id}"]`);

  it('lists every plugin with its source, version, status and why, and the contracts it declares', async () => {
    const listed = await plugins();
    const byId = new Map(listed.map((p) => [p.id, p]));
    expect(byId.get('greeter')?.status).toBe('active');
    expect(byId.get('broken')?.status).toBe('failed');
    expect(byId.get('loose')?.status).toBe('refused');
    expect(byId.get('stash')?.status).toBe('disabled');

    const { page, problems } = await signedIn(ADMIN);
    await visit(page, '#/plugins');
    await page.waitForSelector('#plugins-list table');
    // Every plugin of the API is a row, in its order, with its status.
    const rows = await page.$$eval('#plugins-list tbody tr', (trs) => trs.map((tr) => (tr as any).dataset.plugin));
    expect(rows).toEqual(listed.map((p) => p.id));
    for (const p of listed) expect(await text(page, `#plugins-list tr[data-plugin="${p.id}"] .state`)).toBe(p.status);

    const greeter = await rowText(page, 'greeter');
    expect(greeter).toContain('1.2.3');
    expect(greeter).toContain('path');
    expect(greeter).toContain('tools: greet');
    expect(await rowText(page, 'stash')).toContain('extensions');
    expect(await rowText(page, 'broken')).toContain('the broken plugin cannot start');
    expect(await rowText(page, 'loose')).toContain(byId.get('loose')!.reason!);
    expect(byId.get('loose')!.reason).toMatch(/writable/);
    // Refused plugins are not switched from here (their files must be fixed); the others are.
    expect(await page.$('#plugins-list tr[data-plugin="loose"] button')).toBeNull();
    expect(await page.$('#plugins-list tr[data-plugin="stash"] button[data-action="enable"]')).not.toBeNull();
    expect(await page.$('#plugins-list tr[data-plugin="greeter"] button[data-action="disable"]')).not.toBeNull();
    await screenshot(page, 'admin-plugins');

    // One plugin: what it registered, its config with the secret redacted.
    await page.click('#plugins-list tr[data-plugin="greeter"] a');
    await page.waitForSelector('#plugin dl');
    const detail = await text(page, '#plugin');
    expect(detail).toContain('greet');
    expect(detail).toContain('"greeting": "hi there"');
    expect(detail).toContain('"signingKey": "[redacted]"');
    expect(detail).not.toContain(SIGNING_KEY);
    expect(await text(page, '#plugin-registered')).toContain('greet');
    await screenshot(page, 'admin-plugin-detail');

    // A plugin that does not exist: the API's answer, not a blank page.
    await visit(page, '#/plugins/greetr');
    await page.waitForSelector('#plugin .error');
    expect(await text(page, '#plugin .error')).toMatch(/404 no plugin "greetr"; known: .*greeter/);
    expect(problems).toEqual([]);
  });

  it('enables a disabled plugin for an admin through a config write, and shows it active', async () => {
    const { page, problems } = await signedIn(ADMIN);
    const before = (await request(gw.url).get('/admin/config/status').set(bearer(VIEWER)).expect(200)).body.revision;
    await visit(page, '#/plugins');
    await page.waitForSelector('#plugins-list tr[data-plugin="stash"] button[data-action="enable"]');
    await page.click('#plugins-list tr[data-plugin="stash"] button[data-action="enable"]');
    await page.waitForSelector('#plugin-write-ok');
    const after = (await request(gw.url).get('/admin/config/status').set(bearer(VIEWER)).expect(200)).body.revision;
    expect(after).not.toBe(before);
    expect(await text(page, '#plugin-write-ok')).toContain(`stash enabled: revision ${after}`);
    await page.waitForFunction(() => document.querySelector('#plugins-list tr[data-plugin="stash"] .state')?.textContent === 'active');
    expect((await plugins()).find((p) => p.id === 'stash')?.status).toBe('active');
    // Written where the operator would write it, the rest of the file as it was.
    const file = await fs.readFile(gw.configPath, 'utf8');
    expect(file).toMatch(/stash: \{\s*enabled: true/);
    expect(file).toContain('signingKey: "${GREETER_SIGNING_KEY}"');
    await screenshot(page, 'admin-plugin-enabled');
    expect(problems).toEqual([]);
  });

  it('refuses a switch made against a revision that changed meanwhile (412), says so, and writes nothing', async () => {
    const { page, problems } = await signedIn(ADMIN);
    await visit(page, '#/plugins');
    await page.waitForSelector('#plugins-list tr[data-plugin="greeter"] button[data-action="disable"]');
    // Someone else writes after the page was drawn.
    await request(gw.url)
      .patch('/admin/config')
      .set(bearer(ADMIN))
      .set('If-Match', '*')
      .set('Content-Type', 'application/merge-patch+json')
      .send(JSON.stringify({ plugins: { entries: { greeter: { config: { level: 'high' } } } } }))
      .expect(200);
    const moved = (await request(gw.url).get('/admin/config/status').set(bearer(VIEWER)).expect(200)).body.revision;
    await page.click('#plugins-list tr[data-plugin="greeter"] button[data-action="disable"]');
    await page.waitForSelector('#plugin-write-error');
    const shown = await text(page, '#plugin-write-error');
    expect(shown).toMatch(/^412 /);
    expect(shown).toContain('The config changed since this page was read, so nothing was written');
    expect((await plugins()).find((p) => p.id === 'greeter')?.status).toBe('active');
    expect((await request(gw.url).get('/admin/config/status').set(bearer(VIEWER)).expect(200)).body.revision).toBe(moved);
    await screenshot(page, 'admin-plugin-stale');
    expect(problems).toEqual([]);
  });

  it('gives an operator and a viewer no working switch, and the server refuses their config write anyway', async () => {
    for (const [token, role] of [
      [OPERATOR, 'operator'],
      [VIEWER, 'viewer'],
    ] as const) {
      const { page, problems } = await signedIn(token);
      await visit(page, '#/plugins');
      await page.waitForSelector('#plugins-list table');
      const switches = await page.$$eval('#plugins-list tbody button', (bs) =>
        bs.map((b) => ({ disabled: (b as any).disabled, title: b.title })),
      );
      expect(switches.length).toBeGreaterThan(0);
      expect(switches.every((s) => s.disabled && s.title === 'Config writes need the admin role')).toBe(true);
      if (role === 'viewer') await screenshot(page, 'viewer-plugins');
      expect(problems).toEqual([]);
      const refused = await request(gw.url)
        .patch('/admin/config')
        .set(bearer(token))
        .set('If-Match', '*')
        .set('Content-Type', 'application/merge-patch+json')
        .send(JSON.stringify({ plugins: { entries: { greeter: { enabled: false } } } }));
      expect(refused.status).toBe(403);
    }
  });
});
