import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import request from 'supertest';
import { a2aRpc, userMessage } from '../support/a2a-rpc';
import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { launchChromium, screenshot, signIn, text, visit, watchedPage } from './support/browser';
import { startNginx, TestNginx } from './support/nginx';

// The functions given to page.evaluate run in the browser. Their globals, declared for this file only (the
// DOM library would type the whole program's fetch and streams as the browser's).
declare const document: any;
declare const location: any;
declare const sessionStorage: any;
declare const localStorage: any;

/**
 * The web console in a real Chromium (Debian's `chromium`, driven by puppeteer-core) against a real gateway
 * running the demo config (config/openclaw.json) with an admin and a viewer token, and behind nginx standing in
 * for an SSO proxy. Every page is drawn, checked against the API and saved as a screenshot in
 * test-output/console/. The browser must report no script error, no CSP violation and no request to another origin.
 */

const ADMIN = 'console-suite-admin-token-5f1e2d';
const VIEWER = 'console-suite-viewer-token-8c7b6a';
const PEER = 'console-suite-peer-token-4a3b2c1d';
const DEMO = path.join(__dirname, '..', '..', 'config', 'openclaw.json');

/** The demo config with admin auth: two tokens, and SSO from nginx (127.0.0.2) for the proxy test. */
async function demoConfigWithAuth(): Promise<string> {
  const demo = await fs.readFile(DEMO, 'utf8');
  const admin = `admin: {
      tokens: [{ name: "ops", token: "${ADMIN}", role: "admin" }, { name: "dash", token: "${VIEWER}", role: "viewer" }],
      sso: { enabled: true, trustedProxies: ["127.0.0.2/32"], roleMapping: { platform: "admin", readers: "viewer" } },
    },`;
  if (!/\n {2}gateway: \{\n/.test(demo)) throw new Error('config/openclaw.json changed shape: update demoConfigWithAuth');
  return demo.replace('"$schema": "../schemas/openclaw.schema.json",', '').replace(/\n {2}gateway: \{\n/, `\n  gateway: {\n    ${admin}\n`);
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

jest.setTimeout(60_000);

describe('web console in Chromium (system)', () => {
  let gw: TestGateway;
  let nginx: TestNginx;
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
    gw = await startTestGateway(await demoConfigWithAuth(), {
      env: { CLAWGATE_DEMO_PEER_TOKEN: PEER, CLAWGATE_DEMO_HTTP_TOKEN: 'console-suite-http-token-0000' },
    });
    // Something to look at: an agent-to-agent step (support → expert) and an A2A task.
    await request(gw.url)
      .post(`/admin/sessions/${encodeURIComponent('agent:support:main')}/send`)
      .set(bearer(ADMIN))
      .send({ agentId: 'expert', message: 'please check the build', timeoutSeconds: 10 })
      .expect(200);
    const task = await a2aRpc(gw.url, PEER, 'SendMessage', userMessage('hello from a peer'));
    expect(task.result?.task?.id ?? task.result?.id).toBeDefined();
    nginx = await startNginx(
      (port) => `
      map $cookie_demo_session $sso_user   { "s-alice" "alice"; "s-bob" "bob"; default ""; }
      map $cookie_demo_session $sso_groups { "s-alice" "platform"; "s-bob" "readers"; default ""; }
      server {
        listen 127.0.0.1:${port};
        location / {
          proxy_pass http://127.0.0.1:${gw.port};
          proxy_bind 127.0.0.2;
          proxy_set_header X-Forwarded-User $sso_user;
          proxy_set_header X-Forwarded-Groups $sso_groups;
        }
      }`,
    );
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await nginx?.stop();
    await gw?.stop();
  });

  /** A fresh browser context on the console, signed in with `token`. */
  async function signedIn(token: string): Promise<{ page: Page; problems: string[] }> {
    const watched = await watchedPage(browser, gw.url);
    await watched.page.goto(`${gw.url}/console/`);
    await signIn(watched.page, token);
    return watched;
  }

  it('asks for a token, keeps it in the tab only, and draws every page for an admin', async () => {
    const { page, problems } = await watchedPage(browser, gw.url);
    await page.goto(`${gw.url}/console/`);
    await page.waitForSelector('#login-form', { visible: true });
    await screenshot(page, 'login');
    await signIn(page, ADMIN);
    expect(await text(page, '#who')).toContain('token:ops');
    expect(await text(page, '#who')).toContain('admin');
    const storage = await page.evaluate(() => ({ local: localStorage.length, session: Object.keys(sessionStorage), url: location.href }));
    expect(storage.local).toBe(0);
    expect(storage.session).toEqual(['clawgate.console.token']);
    expect(storage.url).not.toContain(ADMIN);

    // Status: the revision the API serves, the pending-restart and warning sections.
    const { body: status } = await request(gw.url).get('/admin/config/status').set(bearer(VIEWER)).expect(200);
    await page.waitForSelector('#revision');
    expect(await text(page, '#revision')).toBe(status.revision);
    expect(await text(page, '#main')).toContain('Pending restart');
    await screenshot(page, 'admin-status');

    // Agents and bindings: the demo's three agents and its binding, and a memory reindex that reports its end.
    await visit(page, '#/agents');
    const agentsText = await text(page, '#main');
    for (const id of ['main', 'support', 'expert']) expect(agentsText).toContain(id);
    expect(agentsText).toContain('channel http, account demo');
    await page.click('section.memory[data-agent="main"] h3 button');
    await page.waitForFunction(() =>
      /done: \d+ files indexed/.test(document.querySelector('section.memory[data-agent="main"] .progress')?.textContent ?? ''),
    );
    await screenshot(page, 'admin-agents');

    // Sessions: search, then the expert's session with the agent-to-agent step and where it came from.
    await visit(page, '#/sessions');
    await page.waitForSelector('#sessions-list table');
    await page.type('#sessions-search', 'expert');
    const keys = await page.$$eval('#sessions-list tbody a', (as) => as.map((a) => a.textContent));
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((k) => k?.includes('expert'))).toBe(true);
    await screenshot(page, 'admin-sessions');
    await page.click('#sessions-list tbody tr:first-child td:first-child a');
    await page.waitForSelector('#history .transcript .step .provenance');
    const provenance = await text(page, '#history .step .provenance');
    expect(provenance).toContain('agent:support:main');
    expect(provenance).toContain('sessions_send');
    await screenshot(page, 'admin-session-detail');

    // A2A tasks: the peer's task, its reply; no cancel for a task that is over.
    await visit(page, '#/tasks');
    await page.waitForSelector('#tasks-list tbody a');
    await screenshot(page, 'admin-tasks');
    await page.click('#tasks-list tbody tr:first-child td:first-child a');
    await page.waitForSelector('#task dl');
    expect(await text(page, '#task')).toContain('COMPLETED');
    expect(await text(page, '#task .reply')).toContain('hello from a peer');
    expect(await page.$('#task-cancel')).toBeNull();
    await screenshot(page, 'admin-task-detail');

    // Audit: the admin writes of this suite (the reindex, the send), newest first.
    await visit(page, '#/audit');
    await page.waitForSelector('#audit-list table');
    expect(await text(page, '#audit-list')).toContain('/admin/agents/main/memory/reindex');
    await screenshot(page, 'admin-audit');
    expect(problems).toEqual([]);
  });

  it('shows the topology picture of the demo, or the placeholder where the gateway draws none', async () => {
    const { page, problems } = await signedIn(ADMIN);
    const svg = await request(gw.url).get('/admin/topology.svg').set(bearer(VIEWER));
    await visit(page, '#/topology');
    if (svg.status === 404) {
      await page.waitForSelector('#topology-placeholder');
      expect(await text(page, '#topology-placeholder')).toContain('answered 404');
    } else {
      expect(svg.status).toBe(200);
      const picture = String(svg.body instanceof Buffer ? svg.body.toString('utf8') : svg.text);
      for (const id of ['main', 'support', 'expert']) expect(picture).toContain(id);
      await page.waitForFunction(() => document.querySelector('#topology img')?.naturalWidth);
    }
    await screenshot(page, 'admin-topology');
    expect(problems).toEqual([]);
  });

  it('edits the config: checks as you type, shows the plan with its impact, applies it and shows the new revision', async () => {
    const { page, problems } = await signedIn(ADMIN);
    await visit(page, '#/config');
    await page.waitForFunction(() => document.getElementById('config-editor').value.length > 0);
    const before = (await request(gw.url).get('/admin/config/status').set(bearer(VIEWER))).body.revision;
    expect(await text(page, '#config-revision')).toBe(before);

    // The file as written: its comments, line numbers, the secrets it holds literally shown redacted.
    const shownText = await page.$eval('#config-editor', (el) => (el as any).value as string);
    expect(shownText).toContain('// Layers 2 and 3: who may see and message whom.');
    expect(shownText).not.toContain(ADMIN);
    expect(shownText).toContain('"[redacted]"');
    const lines = shownText.split('\n').length;
    expect(await page.$$eval('#config-editor-gutter .line', (rows) => rows.length)).toBe(lines);

    /** Rewrites the editor's text like an operator would (each [from, to] replaced once), and lets the input event run. */
    const edit = (...changes: Array<[string, string]>) =>
      page.evaluate((pairs) => {
        const editor = document.getElementById('config-editor');
        for (const [from, to] of pairs) {
          if (!editor.value.includes(from)) throw new Error(`the editor does not hold ${from}`);
          editor.value = editor.value.replace(from, to);
        }
        editor.dispatchEvent(new Event('input'));
      }, changes);
    const markedLines = () => page.$$eval('#config-editor-gutter .line.marked', (rows) => rows.map((r) => Number(r.textContent)));
    const lineOf = (needle: string) => shownText.split('\n').findIndex((l) => l.includes(needle)) + 1;

    // A syntax error: named with its line and column, and that line marked in the gutter.
    await edit(['maxPingPongTurns: 2 }', 'maxPingPongTurns: 2 ]']);
    await page.waitForSelector('#config-syntax');
    expect(await text(page, '#config-syntax')).toMatch(/not valid JSON5 \(line \d+, column \d+\)/);
    expect(await markedLines()).toEqual([lineOf('maxPingPongTurns: 2')]);
    await edit(['maxPingPongTurns: 2 ]', 'maxPingPongTurns: 2 }']);
    await edit(['maxPingPongTurns: 2', 'maxPingPongTurns: "lots"']);
    await page.waitForSelector('#config-invalid');
    expect(await text(page, '#config-checks')).toContain('session.agentToAgent.maxPingPongTurns');
    expect(await markedLines()).toEqual([lineOf('maxPingPongTurns: 2')]);
    await page.click('#config-checks a.goto'); // "line N": the editor scrolls to the marked line
    await screenshot(page, 'admin-config-invalid');
    await edit(
      ['maxPingPongTurns: "lots"', 'maxPingPongTurns: 2'],
      ['allow: ["support", "expert"]', 'allow: ["support"] /* expert: no */'],
    );
    await page.waitForSelector('#config-valid');
    expect(await markedLines()).toEqual([]);

    await page.click('#config-plan');
    await page.waitForSelector('#plan-impact');
    const impact = await text(page, '#plan-impact');
    expect(impact).toContain('support → expert');
    expect(impact).toMatch(/allowed.*⇒ denied/);
    expect(await text(page, '#plan')).toContain('"support"');
    // Before/after pictures from the topology endpoints.
    await page.waitForFunction(() => ['#plan-before img', '#plan-after img'].every((sel) => document.querySelector(sel)?.naturalWidth > 0));
    await screenshot(page, 'admin-config-plan');

    await page.waitForSelector('#config-apply:not([disabled])');
    await page.click('#config-apply');
    await page.waitForSelector('#applied-revision');
    const after = (await request(gw.url).get('/admin/config/status').set(bearer(VIEWER))).body.revision;
    expect(after).not.toBe(before);
    expect(await text(page, '#applied-revision')).toBe(after);
    expect(await text(page, '#config-revision')).toBe(after);
    // The file is the text as edited: the new comment and the old ones, the admin tokens kept.
    const file = await fs.readFile(gw.configPath, 'utf8');
    expect(file).toContain('allow: ["support"] /* expert: no */');
    expect(file).toContain('// Layers 2 and 3: who may see and message whom.');
    expect(file).toContain(`token: "${ADMIN}"`);
    await screenshot(page, 'admin-config-applied');
    expect(problems).toEqual([]);
  });

  it('lists the applied revisions in the history and rolls back to an earlier one after showing its plan', async () => {
    const { page, problems } = await signedIn(ADMIN);
    const { body: history } = await request(gw.url).get('/admin/config/history').set(bearer(ADMIN)).expect(200);
    const served = history.items.map((i: { revision: string }) => i.revision);
    expect(served.length).toBeGreaterThanOrEqual(2);
    await visit(page, '#/history');
    await page.waitForSelector('#history-list table');
    const shown = await page.$$eval('#history-list tbody code', (cs) => cs.map((c) => c.textContent));
    expect(shown).toEqual(served);
    await screenshot(page, 'admin-history');

    // The revision before the editor's change: its page, the plan of going back, then the rollback.
    const earlier = served[1];
    await page.click(`#history-list tbody tr:nth-child(2) td:first-child a`);
    await page.waitForSelector('#rollback');
    await page.click('#rollback');
    await page.waitForSelector('#rollback-plan #plan-impact');
    expect(await text(page, '#rollback-plan #plan-impact')).toMatch(/support → expert: denied.*⇒ allowed/);
    // The demo's admin tokens are literal in this file: the preview says it cannot tell them apart.
    await page.waitForSelector('#rollback-masked');
    await screenshot(page, 'admin-history-rollback-plan');
    await page.click('#rollback');
    await page.waitForSelector('#applied-revision');
    const { body: status } = await request(gw.url).get('/admin/config/status').set(bearer(VIEWER)).expect(200);
    expect(await text(page, '#applied-revision')).toBe(status.revision);
    expect(status.revision).toBe(earlier);
    expect(await fs.readFile(gw.configPath, 'utf8')).toMatch(/allow: \[\s*"support",\s*"expert"\s*\]/);
    await screenshot(page, 'admin-history-rolled-back');
    expect(problems).toEqual([]);
  });

  it('will not apply a plan once the config changed under the editor', async () => {
    const { page, problems } = await signedIn(ADMIN);
    await visit(page, '#/config');
    await page.waitForFunction(() => document.getElementById('config-editor').value.length > 0);
    const loaded = await text(page, '#config-revision');
    // Someone else writes meanwhile.
    await request(gw.url)
      .patch('/admin/config')
      .set(bearer(ADMIN))
      .set('If-Match', `"${loaded}"`)
      .set('Content-Type', 'application/merge-patch+json')
      .send(JSON.stringify({ session: { agentToAgent: { maxPingPongTurns: 3 } } }))
      .expect(200);
    await page.evaluate(() => {
      const editor = document.getElementById('config-editor');
      editor.value = editor.value.replace(/maxPingPongTurns: \d+/, 'maxPingPongTurns: 1');
      editor.dispatchEvent(new Event('input'));
    });
    await page.click('#config-plan');
    await page.waitForSelector('#plan');
    expect(await text(page, '#plan-box')).toContain(`not ${loaded}: reload before applying`);
    expect(await page.$eval('#config-apply', (b) => b.disabled)).toBe(true);
    await screenshot(page, 'admin-config-stale');
    expect(problems).toEqual([]);
  });

  it('is read-only for a viewer, and the server refuses a viewer write anyway', async () => {
    const { page, problems } = await signedIn(VIEWER);
    expect(await text(page, '#who')).toContain('viewer');
    expect(await page.$$eval('#main button', (bs) => bs.map((b) => b.textContent))).not.toContain('Reload openclaw.json now');
    await screenshot(page, 'viewer-status');
    await visit(page, '#/config');
    await page.waitForFunction(() => document.getElementById('config-editor').value.length > 0);
    expect(await page.$eval('#config-editor', (el) => (el as any).readOnly)).toBe(true);
    expect(await page.$('#config-apply')).toBeNull();
    expect(await page.$('#config-plan')).toBeNull();
    await screenshot(page, 'viewer-config');
    await visit(page, '#/agents');
    expect(await page.$('section.memory h3 button')).toBeNull();
    await visit(page, '#/audit');
    await page.waitForSelector('#audit-denied');
    await visit(page, '#/history');
    await page.waitForSelector('#history-denied');
    // Straight at the API with the tab's credentials: refused.
    const refused = await page.evaluate(async () => {
      const token = sessionStorage.getItem('clawgate.console.token');
      const res = await fetch('/admin/config/plan', {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ mergePatch: { tools: { agentToAgent: { enabled: false } } } }),
      });
      return res.status;
    });
    expect(refused).toBe(403);
    await page.click('#sign-out');
    await page.waitForSelector('#login-form', { visible: true });
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(problems).toEqual([]);
  });

  it('behind the SSO proxy: signed in by the proxy, no token asked, the role from the groups', async () => {
    const { page, problems } = await watchedPage(browser, nginx.url);
    await page.setCookie({ name: 'demo_session', value: 's-bob', url: nginx.url });
    await page.goto(`${nginx.url}/console/`);
    await page.waitForSelector('#nav', { visible: true });
    expect(await page.$eval('#login', (el) => (el as any).hidden)).toBe(true);
    expect(await text(page, '#who')).toContain('sso:bob');
    expect(await text(page, '#who')).toContain('viewer');
    await page.waitForSelector('#revision');
    expect(await page.$('#sign-out:not([hidden])')).toBeNull();
    await screenshot(page, 'sso-viewer-status');
    expect(problems).toEqual([]);
  });
});
