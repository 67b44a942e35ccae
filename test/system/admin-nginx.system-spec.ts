import request from 'supertest';
import { AuditLog } from '../../src/modules/admin/audit-log.service';
import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { startNginx, TestNginx } from './support/nginx';
import { API_CLIENT } from '../support/admin-client';

/**
 * The gateway behind a real reverse proxy. nginx stands in for an SSO proxy: a session cookie selects a fixed
 * identity (as oauth2-proxy would after login) and nginx sets X-Forwarded-User/Email/Groups itself,
 * overwriting whatever the client sent. nginx connects to the gateway from 127.0.0.2 (proxy_bind), the only
 * address in sso.trustedProxies; the test client connects from 127.0.0.1, so the same headers sent directly
 * are not believed.
 */

const ROOT = 'nginx-suite-root-token-3b7c1f';

describe('admin SSO behind nginx (e2e)', () => {
  let gw: TestGateway;
  let nginx: TestNginx;

  beforeAll(async () => {
    gw = await startTestGateway(`{
      agents: { list: [{ id: "main" }] },
      gateway: { bind: "127.0.0.1", admin: {
        tokens: [{ name: "root", token: "${ROOT}", role: "admin" }],
        sso: { enabled: true, trustedProxies: ["127.0.0.2/32"], roleMapping: { platform: "admin", readers: "viewer" } },
      } },
    }`);
    nginx = await startNginx(
      (port) => `
      map $cookie_demo_session $sso_user   { "s-alice" "alice"; "s-bob" "bob"; default ""; }
      map $cookie_demo_session $sso_email  { "s-alice" "alice@corp.example"; "s-bob" "bob@corp.example"; default ""; }
      map $cookie_demo_session $sso_groups { "s-alice" "platform"; "s-bob" "readers"; default ""; }
      server {
        listen 127.0.0.1:${port};
        location / {
          proxy_pass http://127.0.0.1:${gw.port};
          proxy_bind 127.0.0.2;
          # An empty value drops the header; the client's own copy is never forwarded either way.
          proxy_set_header X-Forwarded-User $sso_user;
          proxy_set_header X-Forwarded-Email $sso_email;
          proxy_set_header X-Forwarded-Groups $sso_groups;
          proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        }
      }`,
    );
  }, 30_000);
  afterAll(async () => {
    await nginx?.stop();
    await gw?.stop();
  });

  const spoofed = { 'X-Forwarded-User': 'mallory', 'X-Forwarded-Email': 'mallory@corp.example', 'X-Forwarded-Groups': 'platform' };

  it('grants the role nginx asserts for the signed-in user', async () => {
    await request(nginx.url).post('/admin/config/reload').set(API_CLIENT).set('Cookie', 'demo_session=s-alice').expect(200);
    await request(nginx.url).get('/admin/agents').set('Cookie', 'demo_session=s-bob').expect(200);
    const denied = await request(nginx.url).post('/admin/config/reload').set(API_CLIENT).set('Cookie', 'demo_session=s-bob').expect(403);
    expect(denied.body.detail).toBe('this endpoint requires the "operator" role; sso:bob has role "viewer"');
  });

  it('does not let a client smuggle identity headers through nginx', async () => {
    await request(nginx.url).get('/admin/agents').set(spoofed).expect(401);
    await request(nginx.url).post('/admin/config/reload').set(API_CLIENT).set('Cookie', 'demo_session=s-bob').set(spoofed).expect(403);
  });

  it('refuses the same headers sent straight to the gateway from an untrusted address', async () => {
    await request(`http://127.0.0.1:${gw.port}`).get('/admin/agents').set(spoofed).expect(401);
    await request(`http://127.0.0.1:${gw.port}`)
      .get('/admin/agents')
      .set({ ...spoofed, 'X-Forwarded-For': '127.0.0.2' })
      .expect(401);
    await request(`http://127.0.0.1:${gw.port}`)
      .get('/admin/agents')
      .set({ 'X-Forwarded-User': 'alice', 'X-Forwarded-Groups': 'platform' })
      .expect(401);
  });

  it('still accepts admin bearer tokens through the proxy', async () => {
    await request(nginx.url).post('/admin/config/reload').set(API_CLIENT).set('Authorization', `Bearer ${ROOT}`).expect(200);
  });

  it('audits SSO callers with their client address as forwarded by the trusted proxy', async () => {
    await gw.app.get(AuditLog).flush();
    const page = await request(nginx.url).get('/admin/audit?limit=100').set('Cookie', 'demo_session=s-alice').expect(200);
    const entries = page.body.entries as Array<Record<string, unknown>>;
    expect(entries).toContainEqual(
      expect.objectContaining({ subject: 'sso:alice', role: 'admin', method: 'POST', status: 200, ip: '127.0.0.1' }),
    );
    expect(entries).toContainEqual(
      expect.objectContaining({ subject: 'sso:bob', role: 'viewer', path: '/admin/config/reload', status: 403 }),
    );
    // The direct spoofing attempts: anonymous, from the untrusted peer, whatever X-Forwarded-For claimed.
    const direct = entries.filter((e) => e.subject === 'anonymous' && e.status === 401);
    expect(direct.length).toBeGreaterThanOrEqual(3);
    for (const e of direct) expect(e.ip).toBe('127.0.0.1');
    expect(entries.some((e) => String(e.subject).includes('mallory'))).toBe(false);
  });
});

/**
 * The same proxy for a file written for OpenClaw: `gateway.auth.mode: "trusted-proxy"` with `gateway.trustedProxies`
 * and `trustedProxy.userHeader` is the SSO-proxy mode (docs/admin-security.md#12-openclaw-gatewayauth). nginx sits on
 * this host, so its address is loopback and OpenClaw's `allowLoopback` must say it may be believed.
 */
describe('OpenClaw trusted-proxy auth behind nginx (e2e)', () => {
  const PASSWORD = 'nginx-suite-local-password-5d21e0';
  let gw: TestGateway;
  let nginx: TestNginx;

  beforeAll(async () => {
    gw = await startTestGateway(`{
      agents: { list: [{ id: "main" }] },
      gateway: {
        mode: "local",
        bind: "lan",
        trustedProxies: ["127.0.0.2"],
        auth: { mode: "trusted-proxy", password: "${PASSWORD}", trustedProxy: { userHeader: "x-forwarded-user", allowLoopback: true } },
      },
    }`);
    nginx = await startNginx(
      (port) => `
      map $cookie_demo_session $sso_user { "s-alice" "alice@corp.example"; default ""; }
      server {
        listen 127.0.0.1:${port};
        location / {
          proxy_pass http://127.0.0.1:${gw.port};
          proxy_bind 127.0.0.2;
          proxy_set_header X-Forwarded-User $sso_user;
          proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        }
      }`,
    );
  }, 30_000);
  afterAll(async () => {
    await nginx?.stop();
    await gw?.stop();
  });

  it('lets the user the proxy signed in administer the gateway', async () => {
    await request(nginx.url).post('/admin/config/reload').set(API_CLIENT).set('Cookie', 'demo_session=s-alice').expect(200);
    const who = await request(nginx.url).get('/admin/whoami').set('Cookie', 'demo_session=s-alice').expect(200);
    expect(who.body).toMatchObject({ subject: 'sso:alice@corp.example', role: 'admin' });
  });

  it('refuses a caller the proxy did not sign in, and headers smuggled through it or sent around it', async () => {
    await request(nginx.url).get('/admin/agents').expect(401);
    await request(nginx.url).get('/admin/agents').set('X-Forwarded-User', 'mallory').expect(401);
    await request(`http://127.0.0.1:${gw.port}`)
      .get('/admin/agents')
      .set({ 'X-Forwarded-User': 'alice@corp.example', 'X-Forwarded-For': '127.0.0.2' })
      .expect(401);
  });

  it('takes the password from same-host callers that bypass the proxy', async () => {
    await request(`http://127.0.0.1:${gw.port}`).get('/admin/agents').set('Authorization', `Bearer ${PASSWORD}`).expect(200);
  });
});
