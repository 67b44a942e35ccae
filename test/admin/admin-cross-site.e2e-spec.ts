import { Script } from 'node:vm';
import type { OpenAPIObject } from '@nestjs/swagger';
import request from 'supertest';
import { adminOperations, type AdminOperation } from '../../src/modules/admin/route-roles';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

/**
 * Cross-site request forgery on the admin API (docs/admin-security.md#cross-site-requests): every write — each one
 * taken from the OpenAPI document the gateway serves (test/admin/admin-role-matrix.e2e-spec.ts keeps that equal to the
 * routes express registered), so a write added tomorrow is covered here without anyone editing this file — is refused
 * when a browser says it comes from another site, when its Origin is not the gateway's, and when it is a plain HTML
 * form; the same write from the gateway's own page or from a client that is not a browser gets through.
 */

const ADMIN = 'cross-site-admin-token-0a1b2c';
const VIEWER = 'cross-site-viewer-token-3d4e5f';
const EVIL = 'https://evil.example';
const CLIENT_HEADER = 'X-Clawgate-Client';

/** Dummy values for path parameters: anything that routes; the handler then answers 400/404/428 and changes nothing. */
const PARAM_VALUES: Record<string, string> = { key: encodeURIComponent('agent:main:main'), index: '0' };
type Method = 'post' | 'put' | 'patch' | 'delete';

const urlOf = (op: AdminOperation) => op.path.replace(/\{(\w+)\}/g, (_m, name: string) => PARAM_VALUES[name] ?? 'cross-site-probe');
const isForgeryRefusal = (res: request.Response) =>
  res.status === 403 && /another site|cross-site|same-site|an HTML form cannot send/.test(String(res.body.detail));

describe('admin writes refuse cross-site requests (e2e, every write of the route table)', () => {
  let gw: TestGateway;
  let writes: AdminOperation[];
  const write = (op: AdminOperation) =>
    request(gw.url)[op.method.toLowerCase() as Method](urlOf(op)).set('Authorization', `Bearer ${ADMIN}`);

  beforeAll(async () => {
    gw = await startTestGateway(`{
      agents: { list: [{ id: "main" }] },
      gateway: { admin: { tokens: [
        { name: "root", token: "${ADMIN}", role: "admin" },
        { name: "reader", token: "${VIEWER}", role: "viewer" },
      ] } },
    }`);
    const doc = (await request(gw.url).get('/docs-json').set('Authorization', `Bearer ${VIEWER}`).expect(200)).body as OpenAPIObject;
    writes = adminOperations(doc).filter((op) => !['GET', 'HEAD', 'OPTIONS'].includes(op.method));
  });
  afterAll(() => gw.stop());

  it('finds the writes in the route table, the body-less ones among them', () => {
    const names = writes.map((op) => `${op.method} ${op.path}`);
    expect(names.length).toBeGreaterThanOrEqual(19);
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /admin/config/reload',
        'POST /admin/agents/{id}/memory/reindex',
        'POST /admin/a2a/tasks/{id}/cancel',
        'POST /admin/runs/{runId}/cancel',
        'DELETE /admin/agents/{id}',
        'PATCH /admin/config',
      ]),
    );
  });

  it('refuses each write a browser marks cross-site or same-site, whatever else it carries', async () => {
    const failures: string[] = [];
    for (const op of writes) {
      for (const site of ['cross-site', 'same-site']) {
        const res = await write(op).set('Sec-Fetch-Site', site).set('Origin', EVIL).set(CLIENT_HEADER, 'x').send({});
        if (!isForgeryRefusal(res) || !String(res.body.detail).includes(`Sec-Fetch-Site: ${site}`)) {
          failures.push(`${op.method} ${op.path} (${site}): ${res.status} ${res.text.slice(0, 160)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses each write whose Origin is another site when the browser sends no Sec-Fetch-Site (older browsers)', async () => {
    const failures: string[] = [];
    for (const op of writes) {
      for (const origin of [EVIL, 'null', `${gw.url.replace('127.0.0.1', 'localhost')}`]) {
        const res = await write(op).set('Origin', origin).set(CLIENT_HEADER, 'x').send({});
        if (!isForgeryRefusal(res) || !String(res.body.detail).includes(`Origin ${origin} is not this gateway's origin`)) {
          failures.push(`${op.method} ${op.path} (Origin ${origin}): ${res.status} ${res.text.slice(0, 160)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses each write sent as a plain HTML form (urlencoded, multipart, text/plain, or no body) without the header', async () => {
    const failures: string[] = [];
    for (const op of writes) {
      const forms = [
        write(op).type('form').send('reload=1'),
        write(op).field('reload', '1'),
        write(op).set('Content-Type', 'text/plain').send('{"reload": true}'),
        write(op),
      ];
      for (const [i, res] of (await Promise.all(forms)).entries()) {
        if (!isForgeryRefusal(res) || !String(res.body.detail).includes(`no ${CLIENT_HEADER}`)) {
          failures.push(`${op.method} ${op.path} (form ${i}): ${res.status} ${res.text.slice(0, 160)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    const bare = await request(gw.url).post('/admin/config/reload').set('Authorization', `Bearer ${ADMIN}`).type('form').send('');
    expect(bare.status).toBe(403);
    expect(bare.headers['content-type']).toContain('application/problem+json');
    expect(bare.body).toMatchObject({ status: 403, title: 'Forbidden', instance: '/admin/config/reload' });
    expect(bare.body.detail).toBe(
      'a request that changes something must have a JSON body (Content-Type: application/json) or the header X-Clawgate-Client ' +
        '(any value), which an HTML form cannot send; this one has Content-Type application/x-www-form-urlencoded and no X-Clawgate-Client',
    );
  });

  it('lets each write through from the gateway’s own page, from a client that is not a browser, and as JSON', async () => {
    const failures: string[] = [];
    for (const op of writes) {
      const clients = {
        'same-origin page': write(op).set('Sec-Fetch-Site', 'same-origin').set('Origin', gw.url).set(CLIENT_HEADER, 'console'),
        'older browser, own origin': write(op).set('Origin', gw.url).set(CLIENT_HEADER, 'console'),
        'curl, no body': write(op).set(CLIENT_HEADER, 'curl'),
        'JSON body, no header': write(op).send({}),
        'JSON with a charset': write(op).set('Content-Type', 'application/json; charset=utf-8').send('{}'),
      };
      for (const [client, pending] of Object.entries(clients)) {
        const res = await pending;
        if (res.status === 403 || res.status === 401)
          failures.push(`${op.method} ${op.path} (${client}): ${res.status} ${res.text.slice(0, 160)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('leaves reads alone: a cross-site GET is not refused (it changes nothing, and the page cannot read the answer)', async () => {
    const res = await request(gw.url)
      .get('/admin/config/status')
      .set('Authorization', `Bearer ${VIEWER}`)
      .set('Sec-Fetch-Site', 'cross-site')
      .set('Origin', EVIL);
    expect(res.status).toBe(200);
  });

  it('believes X-Forwarded-Host only from a trusted proxy (none is configured here)', async () => {
    const res = await request(gw.url)
      .post('/admin/config/reload')
      .set('Authorization', `Bearer ${ADMIN}`)
      .set('Origin', 'https://clawgate.corp.example')
      .set('X-Forwarded-Host', 'clawgate.corp.example')
      .set(CLIENT_HEADER, 'x');
    expect(isForgeryRefusal(res)).toBe(true);
  });

  it('documents the refusal and the header on every write; Swagger UI sends the header', async () => {
    const doc = (await request(gw.url).get('/docs-json').set('Authorization', `Bearer ${VIEWER}`).expect(200)).body as OpenAPIObject;
    const missing: string[] = [];
    for (const op of writes) {
      const operation = (
        doc.paths[op.path] as Record<string, { responses: Record<string, { description: string }>; parameters?: unknown[] }>
      )[op.method.toLowerCase()];
      const header = (operation.parameters ?? []).find((p) => (p as { name?: string }).name === CLIENT_HEADER) as
        { required: boolean } | undefined;
      if (!operation.responses['403']?.description.includes('another site')) missing.push(`${op.method} ${op.path}: 403`);
      if (!header) missing.push(`${op.method} ${op.path}: ${CLIENT_HEADER}`);
    }
    expect(missing).toEqual([]);
    const reload = (doc.paths['/admin/config/reload'] as { post: { parameters: Array<{ name: string; required: boolean }> } }).post;
    expect(reload.parameters.find((p) => p.name === CLIENT_HEADER)?.required).toBe(true);
    const init = await request(gw.url).get('/docs/swagger-ui-init.js').set('Authorization', `Bearer ${VIEWER}`).expect(200);
    expect(init.text).toMatch(/"requestInterceptor": function swaggerClientHeader\(request\) \{[^}]*'X-Clawgate-Client'\] = 'swagger-ui'/);
    // The function went into the page as source text: the page's script still compiles.
    expect(() => new Script(init.text)).not.toThrow();
  });
});

/**
 * The cases the brief warns about: with no admin auth configured, a page of any site the operator's browser opens can
 * reach the loopback gateway; behind a proxy the gateway's own origin is the public one (gateway.publicUrl, or the host
 * a trusted proxy forwarded).
 */
describe('cross-site writes on loopback and behind a proxy (e2e)', () => {
  let gw: TestGateway;
  const reload = () => request(gw.url).post('/admin/config/reload');

  beforeAll(async () => {
    gw = await startTestGateway(`{
      agents: { list: [{ id: "main" }] },
      gateway: { trustedProxies: ["127.0.0.1", "::1"], publicUrl: "https://clawgate.example/" },
    }`);
  });
  afterAll(() => gw.stop());

  it('refuses a page of another site that posts to the loopback admin API, with or without a body', async () => {
    expect(isForgeryRefusal(await reload().set('Origin', EVIL).set('Sec-Fetch-Site', 'cross-site'))).toBe(true);
    expect(isForgeryRefusal(await reload().set('Origin', EVIL))).toBe(true);
    expect(isForgeryRefusal(await reload().type('form').send(''))).toBe(true);
    expect(isForgeryRefusal(await reload())).toBe(true);
  });

  it('accepts the gateway’s own origins: gateway.publicUrl, the Host, the X-Forwarded-Host of a trusted proxy', async () => {
    await reload().set('Origin', 'https://clawgate.example').set(CLIENT_HEADER, 'console').expect(200);
    await reload().set('Origin', gw.url).set(CLIENT_HEADER, 'console').expect(200);
    await reload()
      .set('Origin', 'https://console.corp.example')
      .set('X-Forwarded-Host', 'console.corp.example')
      .set(CLIENT_HEADER, 'console')
      .expect(200);
    // A default port in the forwarded host is the same origin as none.
    await reload()
      .set('Origin', 'https://console.corp.example')
      .set('X-Forwarded-Host', 'console.corp.example:443')
      .set(CLIENT_HEADER, 'x')
      .expect(200);
    expect(isForgeryRefusal(await reload().set('Origin', 'http://clawgate.example:8443').set(CLIENT_HEADER, 'x'))).toBe(true);
  });

  it('records the refusal in the audit log like every denial', async () => {
    await reload().set('Origin', 'https://audited.example').set(CLIENT_HEADER, 'x').expect(403);
    // Written after the response: wait for the line.
    const entry = await waitFor('the audit line', async () => {
      const audit = await request(gw.url).get('/admin/audit?limit=1').expect(200);
      const newest = audit.body.entries[0] as { status?: number } | undefined;
      return newest?.status === 403 ? newest : undefined;
    });
    expect(entry).toMatchObject({ subject: 'loopback', method: 'POST', path: '/admin/config/reload', status: 403 });
  });
});
