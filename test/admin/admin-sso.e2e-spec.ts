import request from 'supertest';
import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { API_CLIENT } from '../support/admin-client';

/**
 * SSO identity headers: believed only when the TCP peer is inside gateway.admin.sso.trustedProxies.
 * Tests connect over loopback, so "inside" and "outside" are made by what trustedProxies lists and by which
 * address family the gateway listens on: 127.0.0.1 (peer 127.0.0.1), ::1 (peer ::1), and the IPv4-mapped
 * ::ffff:127.0.0.1 (peer ::ffff:127.0.0.1, what a dual-stack listener reports for IPv4 clients).
 * See docs/admin-security.md#4-sso-through-a-reverse-proxy.
 */

const ROOT = 'sso-suite-root-token-4f1e9a';

interface SsoOptions {
  bind?: string;
  trusted: string[];
  roleMapping?: Record<string, string>;
  defaultRole?: string;
  headers?: string;
}
const config = ({
  bind = '127.0.0.1',
  trusted,
  roleMapping = { readers: 'viewer', ops: 'operator', platform: 'admin' },
  defaultRole = 'none',
  headers = '',
}: SsoOptions) => `{
  agents: { list: [{ id: "main" }] },
  gateway: { bind: ${JSON.stringify(bind)}, admin: {
    tokens: [{ name: "root", token: "${ROOT}", role: "admin" }],
    sso: { enabled: true, trustedProxies: ${JSON.stringify(trusted)}, roleMapping: ${JSON.stringify(roleMapping)},
           defaultRole: ${JSON.stringify(defaultRole)} ${headers} },
  } },
}`;

const identity = (user: string, groups?: string) => ({
  'X-Forwarded-User': user,
  ...(groups !== undefined ? { 'X-Forwarded-Groups': groups } : {}),
});

/** Rewrites the config and applies it now (with the root token), as an operator's edit would be. */
async function apply(gw: TestGateway, base: string, options: SsoOptions): Promise<void> {
  await gw.writeConfig(config(options));
  const res = await request(base).post('/admin/config/reload').set(API_CLIENT).set('Authorization', `Bearer ${ROOT}`).expect(200);
  expect(['applied', 'unchanged']).toContain(res.body.status);
}

describe('SSO identity headers over IPv4 loopback (peer 127.0.0.1)', () => {
  let gw: TestGateway;
  let base: string;
  beforeAll(async () => {
    gw = await startTestGateway(config({ trusted: ['10.0.0.0/8'] }));
    base = `http://127.0.0.1:${gw.port}`;
  });
  afterAll(() => gw.stop());

  it('ignores identity headers from a peer outside trustedProxies (spoofing) → 401', async () => {
    const res = await request(base).get('/admin/config/status').set(identity('mallory', 'platform')).expect(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="clawgate admin"');
    // Claiming to be forwarded by a trusted proxy changes nothing: only the TCP peer counts.
    await request(base).get('/admin/config/status').set(identity('mallory', 'platform')).set('X-Forwarded-For', '10.1.2.3').expect(401);
  });

  it('believes the same headers once the peer is trusted (hot), mapping groups to the highest role', async () => {
    await apply(gw, base, { trusted: ['127.0.0.1'] });
    await request(base).get('/admin/config/status').set(identity('alice', 'readers')).expect(200);
    const denied = await request(base).post('/admin/config/reload').set(API_CLIENT).set(identity('alice', 'readers')).expect(403);
    expect(denied.body.detail).toBe('this endpoint requires the "operator" role; sso:alice has role "viewer"');
    await request(base).post('/admin/config/reload').set(API_CLIENT).set(identity('bob', 'readers, ops')).expect(200);
    const etag = (await request(base).get('/admin/config').set(identity('carol', 'ops,platform')).expect(200)).headers.etag;
    await request(base).post('/admin/agents').set(identity('bob', 'ops')).set('If-Match', etag).send({ id: 'x1' }).expect(403);
    await request(base).post('/admin/agents').set(identity('carol', 'ops,platform')).set('If-Match', etag).send({ id: 'x1' }).expect(201);
    // E-mail alone identifies too.
    await request(base).get('/admin/agents').set({ 'X-Forwarded-Email': 'dave@example.com', 'X-Forwarded-Groups': 'readers' }).expect(200);
  });

  it('answers 401 for a trusted peer without identity, 403 for an identity without a role (defaultRole none)', async () => {
    await request(base).get('/admin/agents').set({ 'X-Forwarded-Groups': 'platform' }).expect(401);
    const none = await request(base).get('/admin/agents').set(identity('erin', 'strangers')).expect(403);
    expect(none.body.detail).toContain('sso:erin has no admin role');
    await request(base).get('/docs-json').set(identity('erin')).expect(403);
  });

  it('applies role mapping, defaultRole and header-name changes at once', async () => {
    await apply(gw, base, { trusted: ['127.0.0.1'], roleMapping: { strangers: 'operator' }, defaultRole: 'viewer' });
    await request(base).post('/admin/config/reload').set(API_CLIENT).set(identity('erin', 'strangers')).expect(200);
    await request(base).get('/admin/agents').set(identity('frank')).expect(200);
    await request(base).post('/admin/config/reload').set(API_CLIENT).set(identity('carol', 'platform')).expect(403); // platform no longer maps
    await apply(gw, base, { trusted: ['127.0.0.1'], headers: ', userHeader: "X-Remote-User", groupsHeader: "X-Remote-Groups"' });
    await request(base).get('/admin/agents').set(identity('alice', 'readers')).expect(401);
    await request(base).get('/admin/agents').set({ 'X-Remote-User': 'alice', 'X-Remote-Groups': 'readers' }).expect(200);
  });

  it('stops trusting at once when the proxy list changes to another address family', async () => {
    await apply(gw, base, { trusted: ['::1'] });
    await request(base).get('/admin/agents').set(identity('alice', 'platform')).expect(401);
    await apply(gw, base, { trusted: ['::ffff:127.0.0.1'] });
    await request(base).get('/admin/agents').set(identity('alice', 'platform')).expect(200);
  });
});

describe('SSO identity headers over IPv6 loopback (peer ::1)', () => {
  let gw: TestGateway;
  let base: string;
  beforeAll(async () => {
    gw = await startTestGateway(config({ bind: '::1', trusted: ['127.0.0.1'] }));
    base = `http://[::1]:${gw.port}`;
  });
  afterAll(() => gw.stop());

  it('does not trust ::1 when only 127.0.0.1 is listed, and does once ::1 is', async () => {
    await request(base).get('/admin/agents').set(identity('alice', 'readers')).expect(401);
    await apply(gw, base, { bind: '::1', trusted: ['127.0.0.0/8'] });
    await request(base).get('/admin/agents').set(identity('alice', 'readers')).expect(401);
    await apply(gw, base, { bind: '::1', trusted: ['::1/128'] });
    await request(base).get('/admin/agents').set(identity('alice', 'readers')).expect(200);
  });
});

describe('SSO identity headers from IPv4-mapped peers (peer ::ffff:127.0.0.1)', () => {
  let gw: TestGateway;
  let base: string;
  beforeAll(async () => {
    gw = await startTestGateway(config({ bind: '::ffff:127.0.0.1', trusted: ['::1'] }));
    base = `http://127.0.0.1:${gw.port}`;
  });
  afterAll(() => gw.stop());

  it('matches a mapped peer against IPv4 blocks and the mapped form, but not against ::1', async () => {
    await request(base).get('/admin/agents').set(identity('alice', 'readers')).expect(401);
    await apply(gw, base, { bind: '::ffff:127.0.0.1', trusted: ['127.0.0.0/8'] });
    await request(base).get('/admin/agents').set(identity('alice', 'readers')).expect(200);
    await apply(gw, base, { bind: '::ffff:127.0.0.1', trusted: ['::ffff:127.0.0.1'] });
    await request(base).get('/admin/agents').set(identity('alice', 'readers')).expect(200);
    await apply(gw, base, { bind: '::ffff:127.0.0.1', trusted: ['127.0.0.2'] });
    await request(base).get('/admin/agents').set(identity('alice', 'readers')).expect(401);
  });
});
