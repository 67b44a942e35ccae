import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { CONSOLE_CSP } from '../../src/modules/console';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/**
 * The web console's static files at /console: served to anyone (they hold no data) with a strict CSP, every
 * module the page imports present, nothing outside public/console reachable, and no data without an identity —
 * the page's own calls go to /admin, where /admin/whoami tells it who it is. See docs/console.md.
 */

const ADMIN = 'console-admin-token-3e8d1f0a';
const VIEWER = 'console-viewer-token-9b2c4d6e';
const CONFIG = `{
  agents: { list: [{ id: "main" }, { id: "secret-agent-name" }] },
  gateway: { admin: { tokens: [
    { name: "root", token: "${ADMIN}", role: "admin" },
    { name: "dash", token: "${VIEWER}", role: "viewer" },
  ] } },
}`;
const CONSOLE_DIR = path.join(__dirname, '..', '..', 'public', 'console');

/** Every relative ES module import (`from '../x.js'`) of a script, resolved against its URL path. */
function importsOf(source: string, urlPath: string): string[] {
  const dir = urlPath.slice(0, urlPath.lastIndexOf('/') + 1);
  return [...source.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+'(\.{1,2}\/[^']+)'/gm)].map(
    (m) => new URL(m[1], `http://x${dir}`).pathname,
  );
}

describe('web console (e2e)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway(CONFIG);
  });
  afterAll(() => gw.stop());

  it('serves the page without credentials, with the strict CSP and the other safety headers', async () => {
    const res = await request(gw.url).get('/console/').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    expect(CONSOLE_CSP).toContain("default-src 'none'");
    expect(CONSOLE_CSP).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    await request(gw.url).get('/console').expect(301).expect('Location', '/console/');
  });

  it('holds no data: no agent, revision or token appears in what it serves', async () => {
    const html = (await request(gw.url).get('/console/').expect(200)).text;
    const { body: status } = await request(gw.url).get('/admin/config/status').set('Authorization', `Bearer ${VIEWER}`).expect(200);
    for (const needle of ['secret-agent-name', status.revision, ADMIN, VIEWER]) expect(html).not.toContain(needle);
  });

  it('has no inline script or style, and loads nothing from another origin', async () => {
    const html = (await request(gw.url).get('/console/').expect(200)).text;
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\bsrc="js\/[^"]+\.js"/);
      expect(body.trim()).toBe('');
    }
    expect(html).not.toMatch(/<style\b|\sstyle="|\son[a-z]+="|https?:\/\//i);
  });

  it('serves every module the page imports, as JavaScript with the same CSP', async () => {
    const seen = new Set<string>();
    const queue = ['/console/js/app.js'];
    while (queue.length) {
      const urlPath = queue.shift()!;
      if (seen.has(urlPath)) continue;
      seen.add(urlPath);
      const res = await request(gw.url).get(urlPath).expect(200);
      expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
      expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
      // Tokens stay in this tab (sessionStorage), and nothing is fetched from elsewhere.
      expect(res.text).not.toMatch(/localStorage\s*[.[]|https?:\/\//);
      queue.push(...importsOf(res.text, urlPath));
    }
    const onDisk = (await fs.readdir(path.join(CONSOLE_DIR, 'js'), { recursive: true })).filter((f) => f.endsWith('.js'));
    expect([...seen].sort()).toEqual(onDisk.map((f) => `/console/js/${f.split(path.sep).join('/')}`).sort());
    await request(gw.url)
      .get('/console/css/console.css')
      .expect(200)
      .expect('Content-Type', /^text\/css/);
  });

  it('serves the config JSON Schema for the editor', async () => {
    const res = await request(gw.url).get('/console/openclaw.schema.json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/schema\+json/);
    expect(JSON.parse(res.text).properties.agents).toBeDefined();
  });

  it('answers 404 for what is not a console file (missing files, other methods, paths leading out)', async () => {
    await request(gw.url).get('/console/js/nope.js').expect(404);
    await request(gw.url).post('/console/').expect(404);
    for (const sneaky of ['/console/%2e%2e/%2e%2e/package.json', '/console/..%2f..%2fpackage.json', '/console/%2e%2e/bootstrap.ts']) {
      const res = await request(gw.url).get(sneaky);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.text).not.toContain('"devDependencies"');
    }
    await request(gw.url).get('/console/').expect(200);
  });

  it('tells the page who it is: GET /admin/whoami for a token, and 401 without or with a wrong one', async () => {
    const viewer = await request(gw.url).get('/admin/whoami').set('Authorization', `Bearer ${VIEWER}`).expect(200);
    expect(viewer.body).toEqual({ subject: 'token:dash', role: 'viewer', via: 'token' });
    const admin = await request(gw.url).get('/admin/whoami').set('Authorization', `Bearer ${ADMIN}`).expect(200);
    expect(admin.body).toEqual({ subject: 'token:root', role: 'admin', via: 'token' });
    const none = await request(gw.url).get('/admin/whoami').expect(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    const wrong = await request(gw.url).get('/admin/whoami').set('Authorization', 'Bearer not-a-configured-token').expect(401);
    expect(wrong.body.detail).toMatch(/token/i);
    await request(gw.url).get('/admin/whoami?role=admin').set('Authorization', `Bearer ${VIEWER}`).expect(200, viewer.body);
  });
});

describe('web console without admin auth configured (e2e)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway('{ agents: { list: [{ id: "main" }] } }');
  });
  afterAll(() => gw.stop());

  it('whoami answers loopback with the admin role, as every loopback admin call does', async () => {
    const res = await request(gw.url).get('/admin/whoami').expect(200);
    expect(res.body).toEqual({ subject: 'loopback', role: 'admin', via: 'loopback' });
  });
});
