import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { AuditLog } from '../../src/modules/admin/audit-log.service';
import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { API_CLIENT } from '../support/admin-client';

/**
 * Admin bearer tokens end to end: 401/403 answers, loopback losing its free pass once auth is
 * configured, docs protection, hot-reloaded revocation, and the audit log with its paged endpoint.
 * See docs/admin-security.md#3-bearer-tokens and docs/admin-security.md#9-audit-log.
 */

const ADMIN = 'admin-token-5d41402abc4b2a76';
const OPERATOR = 'operator-token-7e2f9c1d3b5a';
const VIEWER = 'viewer-token-0c8b6a4e2f1d';
const ENV = { ADMIN_TOKEN: ADMIN, OPERATOR_TOKEN: OPERATOR };

const config = (opts: { viewer?: boolean; publicDocs?: boolean } = {}) => `{
  agents: { list: [{ id: "main" }] },
  gateway: { admin: {
    tokens: [
      { name: "root", token: "\${ADMIN_TOKEN}", role: "admin" },
      { name: "ci", token: "\${OPERATOR_TOKEN}", role: "operator" },
      ${opts.viewer === false ? '' : `{ name: "dash", token: "${VIEWER}", role: "viewer" },`}
    ],
    publicDocs: ${opts.publicDocs === true},
  } },
}`;

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('admin API without gateway.admin (e2e)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway('{ agents: { list: [{ id: "main" }] } }');
  });
  afterAll(() => gw.stop());

  it('keeps the loopback-only behaviour: a local client has full access without credentials', async () => {
    await request(gw.url).get('/admin/config/status').expect(200);
    await request(gw.url).post('/admin/config/reload').set(API_CLIENT).expect(200);
    await request(gw.url).get('/admin/audit').expect(200);
    await request(gw.url).get('/docs-json').expect(200);
  });
});

describe('admin API with bearer tokens (e2e)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway(config(), { env: ENV });
  });
  afterAll(() => gw.stop());

  it('answers 401 problem+json with a Bearer challenge when there is no identity, even on loopback', async () => {
    const res = await request(gw.url).get('/admin/config').expect(401);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.headers['www-authenticate']).toBe('Bearer realm="clawgate admin"');
    expect(res.body).toEqual(expect.objectContaining({ status: 401, title: 'Unauthorized', instance: '/admin/config' }));
    const wrong = await request(gw.url)
      .get('/admin/config')
      .set(bearer(`${ADMIN}x`))
      .expect(401);
    expect(wrong.headers['www-authenticate']).toContain('error="invalid_token"');
    await request(gw.url)
      .get('/admin/config')
      .set('Authorization', `Basic ${Buffer.from(`root:${ADMIN}`).toString('base64')}`)
      .expect(401);
  });

  it('gives each role what it may do and a 403 naming the role that is missing', async () => {
    await request(gw.url).get('/admin/config/status').set(bearer(VIEWER)).expect(200);
    const denied = await request(gw.url).post('/admin/config/reload').set(API_CLIENT).set(bearer(VIEWER)).expect(403);
    expect(denied.headers['content-type']).toContain('application/problem+json');
    expect(denied.body.detail).toBe('this endpoint requires the "operator" role; token:dash has role "viewer"');
    await request(gw.url).post('/admin/config/reload').set(API_CLIENT).set(bearer(OPERATOR)).expect(200);
    const etag = (await request(gw.url).get('/admin/config').set(bearer(OPERATOR)).expect(200)).headers.etag;
    const write = await request(gw.url)
      .post('/admin/agents')
      .set(bearer(OPERATOR))
      .set('If-Match', etag)
      .send({ id: 'ops-made' })
      .expect(403);
    expect(write.body.detail).toContain('requires the "admin" role');
    await request(gw.url).post('/admin/agents').set(bearer(ADMIN)).set('If-Match', etag).send({ id: 'admin-made' }).expect(201);
  });

  it('refuses anonymous callers before routing: unknown routes, other spellings of /admin, and bodies', async () => {
    await request(gw.url).get('/admin/no-such-route').expect(401);
    await request(gw.url).get('/admin/no-such-route').set(bearer(VIEWER)).expect(404);
    await request(gw.url).get('/ADMIN/config').expect(401);
    await request(gw.url).get('/Admin/Config/Status').set(bearer(VIEWER)).expect(200);
    // The body is never parsed for an anonymous caller: broken JSON still gets 401, not 400.
    await request(gw.url).post('/admin/config/validate').set('Content-Type', 'application/json').send('{"a":').expect(401);
  });

  it('protects the docs (UI, JSON, YAML) like a viewer endpoint and documents the admin bearer scheme', async () => {
    for (const url of ['/docs', '/docs/', '/docs-json', '/docs-yaml', '/docs/swagger-ui-init.js']) {
      await request(gw.url).get(url).expect(401);
    }
    const docs = await request(gw.url).get('/docs-json').set(bearer(VIEWER)).expect(200);
    expect(docs.body.components.securitySchemes['admin-token']).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    const reload = docs.body.paths['/admin/config/reload'].post;
    expect(reload['x-clawgate-role']).toBe('operator');
    expect(reload.security).toEqual([{ 'admin-token': [] }]);
    expect(Object.keys(reload.responses)).toEqual(expect.arrayContaining(['401', '403']));
    await request(gw.url).get('/docs').set(bearer(VIEWER)).expect(200);
    await request(gw.url).get('/docs-yaml').set(bearer(VIEWER)).expect(404);
  });

  it('applies a revoked token and publicDocs with the next request after a reload', async () => {
    await request(gw.url).get('/admin/agents').set(bearer(VIEWER)).expect(200);
    await gw.writeConfig(config({ viewer: false, publicDocs: true }));
    await request(gw.url).post('/admin/config/reload').set(API_CLIENT).set(bearer(ADMIN)).expect(200);
    await request(gw.url).get('/admin/agents').set(bearer(VIEWER)).expect(401);
    await request(gw.url).get('/docs-json').expect(200);
    await request(gw.url).get('/admin/agents').expect(401);
    await gw.writeConfig(config());
    await request(gw.url).post('/admin/config/reload').set(API_CLIENT).set(bearer(ADMIN)).expect(200);
    await request(gw.url).get('/admin/agents').set(bearer(VIEWER)).expect(200);
    await request(gw.url).get('/docs-json').expect(401);
  });

  it('audits every write and every denial, one JSON line each, without credentials or query strings', async () => {
    await request(gw.url).get(`/admin/config?token=${ADMIN}`).expect(401);
    await request(gw.url).post('/admin/config/reload?dry=1').set(bearer(ADMIN)).set(API_CLIENT).expect(200);
    await request(gw.url).get('/admin/config/status').set(bearer(ADMIN)).expect(200); // a read: not audited
    await gw.app.get(AuditLog).flush();
    const text = await fs.readFile(path.join(gw.stateDir, 'audit.jsonl'), 'utf8');
    for (const secret of [ADMIN, OPERATOR, VIEWER]) expect(text).not.toContain(secret);
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    for (const line of lines) {
      expect(Object.keys(line).sort()).toEqual(['ip', 'method', 'path', 'revision', 'role', 'status', 'subject', 'ts']);
      expect(line.path).not.toContain('?');
    }
    expect(lines.filter((l) => l.method === 'GET' && l.status === 200)).toEqual([]);
    const last = lines.slice(-2);
    expect(last[0]).toEqual(
      expect.objectContaining({ subject: 'anonymous', role: 'none', method: 'GET', path: '/admin/config', status: 401, ip: '127.0.0.1' }),
    );
    expect(last[1]).toEqual(
      expect.objectContaining({ subject: 'token:root', role: 'admin', method: 'POST', path: '/admin/config/reload', status: 200 }),
    );
    expect(last[1].revision).toMatch(/^[0-9a-f]{12}$/);
    expect(lines).toContainEqual(
      expect.objectContaining({ subject: 'token:dash', method: 'POST', path: '/admin/config/reload', status: 403 }),
    );
    expect(lines).toContainEqual(expect.objectContaining({ subject: 'token:root', method: 'POST', path: '/admin/agents', status: 201 }));
  });

  it('pages the audit log newest first for admins only', async () => {
    await request(gw.url).get('/admin/audit').set(bearer(VIEWER)).expect(403);
    await request(gw.url).get('/admin/audit').set(bearer(OPERATOR)).expect(403);
    await request(gw.url).get('/admin/audit?limit=0').set(bearer(ADMIN)).expect(400);
    await request(gw.url).get('/admin/audit?before=-1').set(bearer(ADMIN)).expect(400);
    await gw.app.get(AuditLog).flush();
    const onDisk = (await fs.readFile(path.join(gw.stateDir, 'audit.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const seen: unknown[] = [];
    let before: number | null = null;
    do {
      const page: request.Response = await request(gw.url)
        .get('/admin/audit')
        .query({ limit: 3, ...(before !== null ? { before } : {}) })
        .set(bearer(ADMIN))
        .expect(200);
      expect(page.body.entries.length).toBeLessThanOrEqual(3);
      seen.push(...page.body.entries);
      before = page.body.next;
    } while (before !== null && seen.length < 1000);
    // The operator's denied GET /admin/audit above is the newest line; every line appears once, reversed.
    expect(seen).toEqual([...onDisk].reverse());
    expect(seen[0]).toEqual(expect.objectContaining({ subject: 'token:ci', path: '/admin/audit', status: 403 }));
  });
});
