import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { SESSION_STORE, SessionStore } from '../../src/modules/sessions/session-store.port';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

const CONFIG = `{
  agents: { list: [{ id: "main", default: true }, { id: "ops" }] },
}`;

const enc = encodeURIComponent;
const tick = () => new Promise((r) => setTimeout(r, 5));

describe('admin sessions API (e2e)', () => {
  let gw: TestGateway;
  let store: SessionStore;
  beforeAll(async () => {
    gw = await startTestGateway(CONFIG);
    store = gw.app.get<SessionStore>(SESSION_STORE);
    await store.getOrCreate('agent:ops:main', { label: 'primary', deliveryContext: { channel: 'http', to: 'alice' } });
    await tick();
    await store.getOrCreate('agent:main:subagent:job-1', { spawnedBy: 'agent:main:main', label: 'research' });
    await tick();
    await store.append('agent:main:main', { role: 'user', text: 'deploy status?' });
    await store.append('agent:main:main', { role: 'assistant', text: 'checking', toolCalls: [{ name: 'exec', args: { cmd: 'kubectl' } }] });
    await store.append('agent:main:main', { role: 'tool', text: 'rollout complete' });
    await store.append('agent:main:main', { role: 'assistant', text: 'deployed at 10:01', runId: 'run-1' });
  });
  afterAll(() => gw.stop());

  const expectProblem = (res: request.Response, status: number) => {
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body).toMatchObject({ type: 'about:blank', status, detail: expect.any(String) });
  };

  it("lists every configured agent's sessions, most recently updated first", async () => {
    const res = await request(gw.url).get('/admin/sessions').expect(200);
    expect(res.body.count).toBe(3);
    expect(res.body.sessions.map((s: { sessionKey: string }) => s.sessionKey)).toEqual([
      'agent:main:main',
      'agent:main:subagent:job-1',
      'agent:ops:main',
    ]);
    expect(res.body.sessions[2]).toMatchObject({ agentId: 'ops', label: 'primary', deliveryContext: { channel: 'http', to: 'alice' } });
  });

  it('filters by agentId, label, activeMinutes and limit', async () => {
    const keys = async (query: string) =>
      (await request(gw.url).get(`/admin/sessions?${query}`).expect(200)).body.sessions.map((s: { sessionKey: string }) => s.sessionKey);
    expect(await keys('agentId=ops')).toEqual(['agent:ops:main']);
    expect(await keys('label=research')).toEqual(['agent:main:subagent:job-1']);
    expect(await keys('label=research&agentId=ops')).toEqual([]);
    expect(await keys('limit=1')).toEqual(['agent:main:main']);
    expect(await keys('activeMinutes=5')).toHaveLength(3);
    expect(await keys('agentId=nobody')).toEqual([]);
  });

  it('gets one session by its URL-encoded key (any case)', async () => {
    const res = await request(gw.url)
      .get(`/admin/sessions/${enc('agent:main:subagent:job-1')}`)
      .expect(200);
    expect(res.body).toMatchObject({
      sessionKey: 'agent:main:subagent:job-1',
      agentId: 'main',
      spawnedBy: 'agent:main:main',
      label: 'research',
    });
    const upper = await request(gw.url)
      .get(`/admin/sessions/${enc('AGENT:Main:Main')}`)
      .expect(200);
    expect(upper.body.sessionKey).toBe('agent:main:main');
  });

  it('serves history: last 20 without tools by default, everything with includeTools=true', async () => {
    const res = await request(gw.url)
      .get(`/admin/sessions/${enc('agent:main:main')}/history`)
      .expect(200);
    expect(res.body.sessionKey).toBe('agent:main:main');
    expect(res.body.warnings).toEqual([]);
    expect(res.body.lines.map((l: { text: string }) => l.text)).toEqual(['deploy status?', 'checking', 'deployed at 10:01']);
    expect(res.body.lines[1]).not.toHaveProperty('toolCalls');
    expect(res.body.lines[2]).toMatchObject({ role: 'assistant', runId: 'run-1', id: expect.any(String), ts: expect.any(String) });

    const all = await request(gw.url)
      .get(`/admin/sessions/${enc('agent:main:main')}/history?includeTools=true&limit=3`)
      .expect(200);
    expect(all.body.lines.map((l: { role: string }) => l.role)).toEqual(['assistant', 'tool', 'assistant']);
    expect(all.body.lines[0].toolCalls).toEqual([{ name: 'exec', args: { cmd: 'kubectl' } }]);

    const one = await request(gw.url)
      .get(`/admin/sessions/${enc('agent:main:main')}/history?limit=1&includeTools=false`)
      .expect(200);
    expect(one.body.lines.map((l: { text: string }) => l.text)).toEqual(['deployed at 10:01']);
  });

  it('answers bad queries with 400 problem+json naming the problem', async () => {
    for (const [query, mention] of [
      ['limit=0', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=501', 'limit'],
      ['limit=1.5', 'limit'],
      ['activeMinutes=0', 'activeMinutes'],
      ['agentId=a/b', 'agentId'],
      ['label=', 'label'],
      ['foo=1', 'foo'],
    ] as const) {
      const res = await request(gw.url).get(`/admin/sessions?${query}`);
      expectProblem(res, 400);
      expect(res.body.detail).toContain(mention);
    }
    const history = `/admin/sessions/${enc('agent:main:main')}/history`;
    for (const query of ['limit=0', 'limit=x', 'limit=1001', 'includeTools=maybe', 'extra=1']) {
      expectProblem(await request(gw.url).get(`${history}?${query}`), 400);
    }
  });

  it('answers 400 for malformed keys and 404 for unknown ones, and stays up', async () => {
    for (const key of ['not-a-key', 'agent:main:', 'agent:../etc:passwd', 'agent:main:a\u0000b']) {
      const res = await request(gw.url).get(`/admin/sessions/${enc(key)}`);
      expectProblem(res, 400);
      expectProblem(await request(gw.url).get(`/admin/sessions/${enc(key)}/history`), 400);
    }
    const missing = await request(gw.url).get(`/admin/sessions/${enc('agent:main:nope')}`);
    expectProblem(missing, 404);
    expect(missing.body.detail).toBe('session agent:main:nope not found');
    expectProblem(await request(gw.url).get(`/admin/sessions/${enc('agent:ghost:main')}/history`), 404);
    await request(gw.url).get('/healthz').expect(200);
    await expect(fs.stat(path.join(gw.stateDir, 'agents', 'ghost'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('documents the endpoints in OpenAPI with examples', async () => {
    const docs = (await request(gw.url).get('/docs-json').expect(200)).body;
    expect(Object.keys(docs.paths)).toEqual(
      expect.arrayContaining(['/admin/sessions', '/admin/sessions/{key}', '/admin/sessions/{key}/history', '/admin/sessions/{key}/export']),
    );
    const list = docs.paths['/admin/sessions'].get;
    expect(list.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['activeMinutes', 'agentId', 'cursor', 'label', 'limit']);
    expect(list.responses['200'].content['application/json'].schema).toBeDefined();
    expect(Object.keys(docs.paths['/admin/sessions/{key}/export'].get.responses['200'].content)).toEqual(['application/x-ndjson']);
    const example = (p: string) => docs.paths[p].get.responses['200'].content['application/json'].example;
    expect(example('/admin/sessions').sessions).toHaveLength(1);
    expect(example('/admin/sessions/{key}').sessionKey).toMatch(/^agent:/);
    expect(example('/admin/sessions/{key}/history').lines).toHaveLength(2);
    expect(docs.paths['/admin/sessions/{key}/history'].get.responses['200'].content['application/json'].schema.$ref).toContain(
      'SessionHistoryDto',
    );
    expect(docs.paths['/admin/sessions/{key}'].get.responses['404']).toBeDefined();
  });
});
