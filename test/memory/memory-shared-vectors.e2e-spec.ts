import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { openSqliteReadOnly } from '../../src/common/storage/sqlite';
import { ConfigStore } from '../../src/modules/config/config.store';
import { MemoryService, sharedVectorsPath } from '../../src/modules/memory/memory.service';
import { FakeEmbeddingsServer } from '../fixtures/memory/fake-embeddings-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

/*
 * Five agents are granted the same directory. Each keeps its own index (and sees only its own
 * collections), but every chunk text is embedded once: the embeddings endpoint receives each note once,
 * and the shared cache holds one vector per note, referenced by five agents. Withdrawing the grant from
 * four agents keeps the vectors; withdrawing it from the last frees them.
 */
const AGENTS = ['a1', 'a2', 'a3', 'a4', 'a5'];
const NOTES = 12;

const config = (granted: readonly string[], fakeUrl: string) => `{
  agents: { list: [
    ${AGENTS.map(
      (id) =>
        `{ id: "${id}"${granted.includes(id) ? ', memorySearch: { qmd: { extraCollections: [{ path: "~/shared-notes", name: "shared-notes" }] } }' : ''} },`,
    ).join('\n    ')}
  ] },
  memory: { backend: "qmd", embeddings: { provider: "openai", baseUrl: "${fakeUrl}", apiKey: "sk-test-embeddings", model: "fake-embed" } },
}`;

type Hit = { collection: string; path: string; snippet: string };

describe('one embedding per chunk across agents sharing a directory (e2e)', () => {
  let gw: TestGateway;
  let fake: FakeEmbeddingsServer;
  let fakeUrl: string;
  let memory: MemoryService;
  const cache = () => {
    const db = openSqliteReadOnly(sharedVectorsPath(gw.stateDir));
    try {
      const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
      return { vectors: count('SELECT count(*) AS n FROM vectors'), refs: count('SELECT count(*) AS n FROM refs') };
    } finally {
      db.close();
    }
  };
  const embeddedTexts = () => fake.requests.flatMap((r) => r.body.input as string[]);
  const search = async (agent: string, q: string): Promise<Hit[]> =>
    (await request(gw.url).get(`/admin/agents/${agent}/memory/search`).query({ q, limit: 20 }).expect(200)).body.results as Hit[];
  const idleAll = () => Promise.all(AGENTS.map(async (id) => (await memory.forAgent(id)).idle()));

  beforeAll(async () => {
    fake = new FakeEmbeddingsServer('sk-test-embeddings');
    fakeUrl = await fake.start();
    gw = await startTestGateway(config(AGENTS, fakeUrl));
    const shared = path.join(gw.dir, 'shared-notes');
    await fs.mkdir(shared, { recursive: true });
    for (let i = 0; i < NOTES; i++) {
      await fs.writeFile(path.join(shared, `note-${i}.md`), `# Note ${i}\n\nThe locker code for shelf ${i} is ${1000 + i * 7}.\n`);
    }
    // a1 alone has a private note.
    await fs.mkdir(path.join(gw.stateDir, 'workspace-a1'), { recursive: true });
    await fs.writeFile(path.join(gw.stateDir, 'workspace-a1', 'MEMORY.md'), '# Private\n\nThe attic key hangs behind the calendar.\n');
    memory = gw.app.get(MemoryService);
  });
  afterAll(async () => {
    await gw.stop();
    await fake.stop();
  });

  it('embeds each shared note once although five agents index it at the same time', async () => {
    await idleAll();
    const texts = embeddedTexts();
    const shared = texts.filter((t) => t.startsWith('# Note'));
    expect(shared).toHaveLength(NOTES);
    expect(new Set(shared).size).toBe(NOTES);
    expect(texts.filter((t) => t.includes('attic key'))).toHaveLength(1);
    expect(cache()).toEqual({ vectors: NOTES + 1, refs: NOTES * AGENTS.length + 1 });
    // /metrics counts each shared chunk once, under the embedder that made it.
    const metrics = (await request(gw.url).get('/metrics').expect(200)).text;
    expect(metrics).toContain(`clawgate_memory_embedded_chunks_total{embedder="openai"} ${NOTES + 1}`);
    for (const id of AGENTS) {
      const cols = (await request(gw.url).get(`/admin/agents/${id}/memory/collections`).expect(200)).body;
      expect(cols.collections.find((c: { name: string }) => c.name === 'shared-notes')).toMatchObject({
        files: NOTES,
        chunks: NOTES,
        embedded: NOTES,
      });
    }
  });

  it('keeps every agent to its own collections', async () => {
    for (const id of AGENTS) {
      const hits = await search(id, 'attic key calendar');
      expect(hits.every((h) => ['shared-notes', `memory-root-${id}`, `memory-dir-${id}`].includes(h.collection))).toBe(true);
      expect(hits.some((h) => h.snippet.includes('attic key'))).toBe(id === 'a1');
      expect((await search(id, 'locker code shelf 3'))[0]).toMatchObject({ collection: 'shared-notes', path: 'shared-notes/note-3.md' });
    }
  });

  it('keeps the vectors while one agent still holds the grant, and frees them with the last', async () => {
    const store = gw.app.get(ConfigStore);
    await gw.writeConfig(config(['a5'], fakeUrl));
    await waitFor(
      'grant withdrawn from four agents',
      async () => store.current().agentsById.get('a1')!.extraCollections.length === 0,
      5000,
    );
    await idleAll();
    expect(cache()).toEqual({ vectors: NOTES + 1, refs: NOTES + 1 });
    expect((await search('a5', 'locker code shelf 3'))[0]).toMatchObject({ path: 'shared-notes/note-3.md' });

    await gw.writeConfig(config([], fakeUrl));
    await waitFor(
      'grant withdrawn from the last agent',
      async () => store.current().agentsById.get('a5')!.extraCollections.length === 0,
      5000,
    );
    await idleAll();
    expect(cache()).toEqual({ vectors: 1, refs: 1 }); // a1's private note
    expect(embeddedTexts().filter((t) => t.startsWith('# Note'))).toHaveLength(NOTES); // nothing embedded again
  });
});
