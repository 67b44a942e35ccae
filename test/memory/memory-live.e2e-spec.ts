import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { ConfigStore } from '../../src/modules/config/config.store';
import { MemoryService } from '../../src/modules/memory/memory.service';
import { FakeEmbeddingsServer } from '../fixtures/memory/fake-embeddings-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { API_CLIENT } from '../support/admin-client';

type Hit = { collection: string; path: string; snippet: string };

const config = (opts: { familyGrant?: boolean; embeddings?: string; citations?: boolean } = {}) => `{
  agents: { list: [
    { id: "main" },
    { id: "family"${opts.familyGrant ? `, memorySearch: { qmd: { extraCollections: [{ path: "~/state/workspace-main/memory", name: "main-notes" }] } }` : ''} },
  ] },
  memory: { backend: "qmd"${opts.embeddings ? `, embeddings: ${opts.embeddings}` : ''}${opts.citations ? ', citations: "on"' : ''} },
}`;

describe('memory of a running gateway (e2e)', () => {
  let gw: TestGateway;
  let fake: FakeEmbeddingsServer;
  let fakeUrl: string;
  let mainWs: string;
  const search = async (agent: string, q: string): Promise<Hit[]> => {
    const res = await request(gw.url).get(`/admin/agents/${agent}/memory/search`).query({ q }).expect(200);
    return res.body.results as Hit[];
  };
  const applied = async (check: (s: ReturnType<ConfigStore['current']>) => boolean) =>
    waitFor('config applied', async () => check(gw.app.get(ConfigStore).current()), 5000);

  beforeAll(async () => {
    fake = new FakeEmbeddingsServer('sk-test-embeddings');
    fakeUrl = await fake.start();
    gw = await startTestGateway(config());
    mainWs = path.join(gw.stateDir, 'workspace-main');
    // First use opens the index lazily (nothing is indexed at boot).
    expect((await request(gw.url).get('/admin/agents/main/memory/search').query({ q: 'anything' }).expect(200)).body).toEqual({
      status: 'ok',
      results: [],
    });
  });
  afterAll(async () => {
    await gw.stop();
    await fake.stop();
  });

  it('an edit of MEMORY.md is searchable within 3 s (default debounce 1500 ms)', async () => {
    const started = Date.now();
    await fs.writeFile(path.join(mainWs, 'MEMORY.md'), '# People\n\nThe lighthouse keeper is called Ophelia Brandt.\n');
    await waitFor('MEMORY.md indexed', async () => (await search('main', 'lighthouse keeper')).some((h) => h.path === 'MEMORY.md'), 3000);
    const elapsed = Date.now() - started;

    console.log(`MEMORY.md edit searchable after ${elapsed} ms`);
    expect(elapsed).toBeLessThan(3000);
  });

  it('an unrelated query answers nothing at the default minScore (the bundled model); minScore=0 answers the best there is', async () => {
    await (await gw.app.get(MemoryService).forAgent('main')).idle();
    expect(await search('main', 'who designed the Eiffel Tower')).toEqual([]);
    const all = await request(gw.url)
      .get('/admin/agents/main/memory/search')
      .query({ q: 'who designed the Eiffel Tower', minScore: 0 })
      .expect(200);
    expect(all.body.results[0]).toMatchObject({ path: 'MEMORY.md', score: expect.any(Number) });
    expect(all.body.results[0].score).toBeLessThan(0.4);
    expect(all.body.results[0].citation).toBeUndefined(); // memory.citations "auto"
  });

  it('memory.citations "on": every result carries path#Lstart-Lend', async () => {
    await gw.writeConfig(config({ citations: true }));
    await applied((s) => s.config.memory.citations === 'on');
    const res = await request(gw.url).get('/admin/agents/main/memory/search').query({ q: 'lighthouse keeper' }).expect(200);
    expect(res.body.results[0]).toMatchObject({ path: 'MEMORY.md', startLine: 1, endLine: 3, citation: 'MEMORY.md#L1-L3' });
    await gw.writeConfig(config());
    await applied((s) => s.config.memory.citations === 'auto');
  });

  it('a new file is found and a deleted one disappears from results', async () => {
    const file = path.join(mainWs, 'memory', 'boats', 'dinghy.md');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, 'The dinghy outboard takes two-stroke fuel mixed 50:1.\n');
    await waitFor(
      'dinghy.md indexed',
      async () => (await search('main', 'dinghy outboard fuel'))[0]?.path === 'memory/boats/dinghy.md',
      3000,
    );
    await fs.rm(file);
    await waitFor(
      'dinghy.md removed',
      async () => !(await search('main', 'dinghy outboard fuel')).some((h) => h.path === 'memory/boats/dinghy.md'),
      3000,
    );
    const cols = await request(gw.url).get('/admin/agents/main/memory/collections').expect(200);
    expect(cols.body.collections.find((c: { name: string }) => c.name === 'memory-dir-main')).toMatchObject({ files: 0, chunks: 0 });
  });

  it('a grant added by reload is searchable; removed, it stops at the new revision', async () => {
    await fs.writeFile(path.join(mainWs, 'memory', 'garden.md'), 'The greenhouse thermostat is set to 18 degrees.\n');
    expect((await search('family', 'greenhouse thermostat')).some((h) => h.collection === 'main-notes')).toBe(false);
    await gw.writeConfig(config({ familyGrant: true }));
    await applied((s) => s.agentsById.get('family')!.extraCollections.length === 1);
    await waitFor('grant indexed', async () => (await search('family', 'greenhouse thermostat'))[0]?.collection === 'main-notes', 5000);
    expect((await search('family', 'greenhouse thermostat'))[0]).toMatchObject({ path: 'main-notes/garden.md' });

    await gw.writeConfig(config());
    await applied((s) => s.agentsById.get('family')!.extraCollections.length === 0);
    // No waiting for a resync: the very first search on the new revision no longer sees the grant.
    expect((await search('family', 'greenhouse thermostat')).some((h) => h.collection === 'main-notes')).toBe(false);
    const got = await request(gw.url).get('/admin/agents/family/memory/collections').expect(200);
    expect(got.body.collections.map((c: { name: string }) => c.name)).toEqual(['memory-root-family', 'memory-dir-family']);
  });

  it('switching the embedder by reload re-embeds everything with the new one (openai format)', async () => {
    const main = await gw.app.get(MemoryService).forAgent('main');
    await main.idle();
    const embeddings = `{ provider: "openai", baseUrl: "${fakeUrl}", apiKey: "sk-test-embeddings", model: "fake-embed" }`;
    await gw.writeConfig(config({ embeddings }));
    await applied((s) => s.config.memory.embeddings.provider === 'openai');
    await main.idle();
    const cols = await request(gw.url).get('/admin/agents/main/memory/collections').expect(200);
    expect(cols.body.embeddings).toEqual({ provider: 'openai', fingerprint: `openai:${fakeUrl}:fake-embed` });
    for (const c of cols.body.collections as Array<{ chunks: number; embedded: number }>) expect(c.embedded).toBe(c.chunks);
    const texts = fake.requests.flatMap((r) => r.body.input as string[]);
    expect(texts.some((t) => t.includes('lighthouse keeper'))).toBe(true);
    expect(
      fake.requests.every(
        (r) => r.path === '/v1/embeddings' && r.authorization === 'Bearer sk-test-embeddings' && r.body.model === 'fake-embed',
      ),
    ).toBe(true);
    const before = fake.requests.length;
    expect((await search('main', 'greenhouse thermostat'))[0]).toMatchObject({ path: 'memory/garden.md' });
    expect(fake.requests.length).toBe(before + 1); // the query vector
  });

  it('answers 404 for unknown agents and 400 for bad input', async () => {
    const missing = await request(gw.url).get('/admin/agents/ghost/memory/collections').expect(404);
    expect(missing.headers['content-type']).toContain('application/problem+json');
    expect(missing.body.detail).toBe('no agent "ghost"');
    await request(gw.url).post('/admin/agents/ghost/memory/reindex').set(API_CLIENT).expect(404);
    await request(gw.url).get('/admin/agents/ghost/memory/search').query({ q: 'x' }).expect(404);
    for (const query of [
      '',
      'q=',
      'q=x&limit=0',
      'q=x&limit=101',
      'q=x&limit=abc',
      'q=x&limit=1.5',
      'q=x&minScore=2',
      'q=x&other=1',
      'q=a&q=b',
    ]) {
      const res = await request(gw.url).get(`/admin/agents/main/memory/search?${query}`);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
    }
    const reindex = await request(gw.url).post('/admin/agents/main/memory/reindex').set(API_CLIENT).expect(200);
    expect(reindex.body).toMatchObject({ agentId: 'main', indexed: 2, unchanged: 0, removed: 0, skipped: [], chunks: 2, embedded: 2 });
  });

  it('documents the endpoints with their roles in OpenAPI', async () => {
    const doc = (await request(gw.url).get('/docs-json').expect(200)).body;
    const base = '/admin/agents/{id}/memory';
    expect(doc.paths[`${base}/collections`].get['x-clawgate-role']).toBe('viewer');
    expect(doc.paths[`${base}/search`].get['x-clawgate-role']).toBe('viewer');
    expect(doc.paths[`${base}/reindex`].post['x-clawgate-role']).toBe('operator');
    const params = doc.paths[`${base}/search`].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(expect.arrayContaining(['id', 'q', 'limit']));
  });
});

describe('memory admin roles, limits and the builtin backend (e2e)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway(`{
      gateway: { admin: { tokens: [ { name: "watcher", token: "v-token", role: "viewer" }, { name: "ops", token: "o-token", role: "operator" } ] } },
      agents: { list: [ { id: "main", memorySearch: { qmd: { extraCollections: [{ path: "shared", name: "shared" }] } } } ] },
      memory: { embeddings: { provider: "none" }, qmd: { limits: { maxResults: 3, maxSnippetChars: 120 } } },
    }`);
  });
  afterAll(() => gw.stop());
  const viewer = { Authorization: 'Bearer v-token' };

  it('viewer may search and list, only operator may reindex, nobody without a token', async () => {
    await request(gw.url).get('/admin/agents/main/memory/search').query({ q: 'x' }).expect(401);
    await request(gw.url).get('/admin/agents/main/memory/search').query({ q: 'x' }).set(viewer).expect(200);
    await request(gw.url).get('/admin/agents/main/memory/collections').set(viewer).expect(200);
    await request(gw.url).post('/admin/agents/main/memory/reindex').set(API_CLIENT).set(viewer).expect(403);
    const ok = await request(gw.url)
      .post('/admin/agents/main/memory/reindex')
      .set(API_CLIENT)
      .set('Authorization', 'Bearer o-token')
      .expect(200);
    expect(ok.body).toMatchObject({ agentId: 'main', embedded: 0 });
  });

  it('builtin backend: own MEMORY.md and memory/ only, keyword search, configured limits', async () => {
    const ws = path.join(gw.stateDir, 'workspace-main');
    const sections = Array.from(
      { length: 12 },
      (_, i) => `## Harbor log ${i}\n\n${'The harbor crane lifted containers all day long. '.repeat(12)}`,
    );
    await fs.writeFile(path.join(ws, 'MEMORY.md'), sections.join('\n\n'));
    await fs.mkdir(path.join(ws, 'shared'), { recursive: true });
    await fs.writeFile(path.join(ws, 'shared', 'x.md'), 'harbor crane in the shared folder');
    await request(gw.url).post('/admin/agents/main/memory/reindex').set(API_CLIENT).set('Authorization', 'Bearer o-token').expect(200);
    const cols = await request(gw.url).get('/admin/agents/main/memory/collections').set(viewer).expect(200);
    expect(cols.body).toMatchObject({ backend: 'builtin', embeddings: { provider: 'none', fingerprint: null } });
    expect(cols.body.collections.map((c: { name: string }) => c.name)).toEqual(['memory-root-main', 'memory-dir-main']);

    const res = await request(gw.url).get('/admin/agents/main/memory/search').query({ q: 'harbor crane' }).set(viewer).expect(200);
    expect(res.body.results).toHaveLength(3);
    for (const hit of res.body.results) {
      expect(hit.path).toBe('MEMORY.md');
      expect(hit.snippet.length).toBeLessThanOrEqual(120);
      expect(hit.endLine).toBeGreaterThanOrEqual(hit.startLine);
    }
    const more = await request(gw.url)
      .get('/admin/agents/main/memory/search')
      .query({ q: 'harbor crane', limit: 5 })
      .set(viewer)
      .expect(200);
    expect(more.body.results).toHaveLength(5);
  });
});
