import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { MemoryService } from '../../src/modules/memory/memory.service';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/*
 * memory.embeddings.provider "bundled-static" end to end: the gateway builds the static table from the
 * bundled model in the state directory (0600) on first use, indexes the 32 fixture notes with it, and the
 * admin search API finds the note a query paraphrases, its best candidates rescored by the bundled model
 * (memory.embeddings.rerank). A restart reads the table instead of building it.
 */
const FIXTURES = path.join(__dirname, '..', 'fixtures', 'memory');

const config = `{
  agents: { list: [{ id: "main", memorySearch: { qmd: { extraCollections: [{ path: ${JSON.stringify(path.join(FIXTURES, 'notes'))}, name: "notes" }] } } }] },
  memory: { backend: "qmd", qmd: { includeDefaultMemory: false }, embeddings: { provider: "bundled-static" } },
}`;

type Hit = { path: string; score: number };

describe('the static embedder (bundled-static) through the gateway (e2e)', () => {
  let gw: TestGateway;
  const tables = async () => (await fs.readdir(path.join(gw.stateDir, 'memory'))).filter((f) => /^static-table-[0-9a-f]+\.bin$/.test(f));
  const search = async (q: string, minScore?: number): Promise<Hit[]> =>
    (
      await request(gw.url)
        .get('/admin/agents/main/memory/search')
        .query({ q, limit: 3, ...(minScore === undefined ? {} : { minScore }) })
        .expect(200)
    ).body.results as Hit[];

  beforeAll(async () => {
    gw = await startTestGateway(config);
    await (await gw.app.get(MemoryService).forAgent('main')).idle();
  }, 180_000);
  afterAll(() => gw.stop());

  it('builds its table in the state directory (0600) and embeds every chunk under its own fingerprint', async () => {
    const [table] = await tables();
    expect(table).toBeDefined();
    const stat = await fs.stat(path.join(gw.stateDir, 'memory', table));
    if (process.platform !== 'win32') expect(stat.mode & 0o777).toBe(0o600);
    expect(stat.size).toBeGreaterThan(8000 * 512 * 4);
    const view = (await request(gw.url).get('/admin/agents/main/memory/collections').expect(200)).body;
    expect(view.embeddings).toMatchObject({ provider: 'bundled-static', fingerprint: expect.stringMatching(/^bundled-static:/) });
    const notes = view.collections.find((c: { name: string }) => c.name === 'notes');
    expect(notes.chunks).toBeGreaterThanOrEqual(32);
    expect(notes.embedded).toBe(notes.chunks);
  });

  it('finds the note a query paraphrases through the admin search API', async () => {
    const cases = JSON.parse(await fs.readFile(path.join(FIXTURES, 'semantic-queries.json'), 'utf8')) as Array<{
      query: string;
      target: string;
    }>;
    let found = 0;
    for (const c of cases) if ((await search(c.query, 0)).some((h) => path.basename(h.path) === c.target)) found++;
    // Measured 16 of 20 (the full model: 19); a table that did not carry the model's meaning finds ~3.
    expect(found).toBeGreaterThanOrEqual(14);
    // Gibberish gets nothing at the default minScore.
    expect(await search('zqxv plorf wembly gnarth')).toEqual([]);
  });

  it('rescores its best candidates with the bundled model: the model’s recall at the default minScore, unrelated queries unanswered', async () => {
    const cases = JSON.parse(await fs.readFile(path.join(FIXTURES, 'semantic-queries.json'), 'utf8')) as Array<{
      query: string;
      target: string;
    }>;
    const unrelated = JSON.parse(await fs.readFile(path.join(FIXTURES, 'unrelated-queries.json'), 'utf8')) as string[];
    let found = 0;
    for (const c of cases) if ((await search(c.query)).some((h) => path.basename(h.path) === c.target)) found++;
    let answered = 0;
    for (const q of unrelated) if ((await search(q)).length) answered++;
    console.log(`bundled-static with rerank at the default minScore: recall@3 ${found}/20, unrelated answered ${answered}/20`);
    // Measured 17 of 20, as the full model (the static ranking alone: 1 of 20 at this floor).
    expect(found).toBeGreaterThanOrEqual(16);
    expect(answered).toBe(0);
  }, 120_000);

  it('gives every chunk the bundled model’s vector in the background, shown as chunks awaiting the model until none is left', async () => {
    const memory = await gw.app.get(MemoryService).forAgent('main');
    await memory.upgraded();
    const view = (await request(gw.url).get('/admin/agents/main/memory/collections').expect(200)).body;
    expect(view.embeddings.awaitingModel).toBe(0);
    expect(view.embeddings.upgradeError).toBeUndefined();
    expect((await request(gw.url).get('/metrics').expect(200)).text).toContain(
      'clawgate_memory_index_awaiting_model_chunks{agent="other"} 0',
    );
    // Now a search reads the model's own vector list: it still finds the paraphrased note, and gibberish nothing.
    expect((await search('when will the tooth doctor see me', 0)).map((h) => path.basename(h.path))).toContain('dentist.md');
    expect(await search('zqxv plorf wembly gnarth')).toEqual([]);
  }, 180_000);

  it('reads the table after a restart instead of building it again', async () => {
    const [table] = await tables();
    const before = await fs.stat(path.join(gw.stateDir, 'memory', table));
    gw = await gw.restart();
    await (await gw.app.get(MemoryService).forAgent('main')).idle();
    expect((await search('when will the tooth doctor see me', 0)).map((h) => path.basename(h.path))).toContain('dentist.md');
    expect(await tables()).toEqual([table]);
    expect((await fs.stat(path.join(gw.stateDir, 'memory', table))).mtimeMs).toBe(before.mtimeMs);
  }, 120_000);
});
