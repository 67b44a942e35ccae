import request from 'supertest';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

const BASE = `{
  // a comment the gateway must never touch
  agents: { list: [{ id: "main" }] },
  channels: { a2a: { enabled: true, peers: { hermes: { token: "\${HERMES_TOKEN}" } } } },
}`;

describe('config admin API (e2e)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway(BASE, { env: { HERMES_TOKEN: 'hermes-secret-value' } });
  });
  afterAll(() => gw.stop());

  it('serves /healthz, /readyz and a valid OpenAPI document', async () => {
    await request(gw.url).get('/healthz').expect(200, { status: 'ok' });
    const ready = await request(gw.url).get('/readyz').expect(200);
    expect(ready.body.revision).toMatch(/^[0-9a-f]{12}$/);
    const docs = await request(gw.url).get('/docs-json').expect(200);
    expect(docs.body.openapi).toMatch(/^3\./);
    expect(Object.keys(docs.body.paths)).toEqual(
      expect.arrayContaining(['/admin/config', '/admin/config/status', '/admin/config/validate', '/admin/config/reload', '/healthz']),
    );
  });

  it('GET /admin/config redacts nothing that is a ${VAR} name and never shows the secret value', async () => {
    const res = await request(gw.url).get('/admin/config').expect(200);
    expect(res.headers.etag).toBe(`"${res.body.revision}"`);
    expect(res.text).not.toContain('hermes-secret-value');
    expect(res.body.document.channels.a2a.peers.hermes.token).toBe('${HERMES_TOKEN}');
    await request(gw.url).get('/admin/config').set('If-None-Match', res.headers.etag).expect(304);
  });

  it('POST /admin/config/validate answers 200 for a valid body and 422 naming the path for an invalid one', async () => {
    const ok = await request(gw.url)
      .post('/admin/config/validate')
      .set('Content-Type', 'application/json5')
      .send('{ agents: { list: [{ id: "x" }] } }')
      .expect(200);
    expect(ok.body).toEqual({ valid: true, revision: expect.stringMatching(/^[0-9a-f]{12}$/), warnings: [] });
    const bad = await request(gw.url)
      .post('/admin/config/validate')
      .send({ agents: { list: [{ id: 'x', modle: 'echo/x' }] } })
      .expect(422);
    expect(bad.headers['content-type']).toContain('application/problem+json');
    expect(bad.body.errors).toContainEqual(
      expect.objectContaining({ path: 'agents.list[0].modle', message: 'unknown key (did you mean "model"?)' }),
    );
    const broken = await request(gw.url).post('/admin/config/validate').set('Content-Type', 'application/json5').send('{ a: ').expect(422);
    expect(broken.body.errors[0]).toEqual(expect.objectContaining({ line: 1, severity: 'error' }));
  });

  it('answers bad request bodies with problem+json and stays up', async () => {
    const res = await request(gw.url).post('/admin/config/validate').set('Content-Type', 'application/json').send('{"a":').expect(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body.detail).toMatch(/not valid JSON/);
    const arr = await request(gw.url).post('/admin/config/validate').send([1, 2]).expect(400);
    expect(arr.body.detail).toMatch(/JSON object/);
    await request(gw.url).get('/healthz').expect(200);
  });

  it('answers unknown routes with a problem+json 404', async () => {
    const res = await request(gw.url).get('/admin/nope').expect(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
  });

  it('applies a valid edit within 2 s, rejects an invalid one and keeps serving the old revision', async () => {
    const before = (await request(gw.url).get('/admin/config/status')).body;
    await gw.writeConfig(BASE.replace('{ id: "main" }', '{ id: "main" }, { id: "second" }'));
    const applied = await waitFor(
      'the new revision',
      async () => {
        const s = (await request(gw.url).get('/admin/config/status')).body;
        return s.revision !== before.revision ? s : undefined;
      },
      2000,
    );
    expect(applied.lastError).toBeNull();

    for (const [text, path] of [
      [BASE.replace('id: "main"', 'id: "main", modle: "x"'), 'agents.list[0].modle'],
      [BASE.replace('enabled: true', 'enabled: "yes"'), 'channels.a2a.enabled'],
      [BASE.replace('agents:', 'agents: {,'), ''],
    ] as const) {
      await gw.writeConfig(text);
      const status = await waitFor(
        'lastError',
        async () => {
          const s = (await request(gw.url).get('/admin/config/status')).body;
          return s.lastError && s.lastError.errors[0].path === path ? s : undefined;
        },
        3000,
      );
      expect(status.revision).toBe(applied.revision);
      await request(gw.url).get('/readyz').expect(200);
    }
    const metrics = await request(gw.url).get('/metrics').expect(200);
    expect(metrics.text).toMatch(/clawgate_config_reload_total\{result="rejected"\} [1-9]/);
    expect(metrics.text).toContain(`clawgate_config_revision_info{revision="${applied.revision}"} 1`);
  });
});
