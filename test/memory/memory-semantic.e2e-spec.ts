import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentMemory } from '../../src/modules/memory/agent-memory';
import { CONFIG_DEFAULTS } from '../../src/modules/config/config-defaults';
import { BundledEmbedder } from '../../src/modules/memory/bundled-embedder';
import { collectionKey } from '../../src/modules/memory/memory-collections';
import type { SearchMode } from '../../src/modules/memory/memory-searcher';
import { SqliteMemoryIndex } from '../../src/modules/memory/sqlite-memory-index';

/*
 * Offline semantic retrieval: 32 short notes written for this test and queries that share no keyword with
 * their target note (checked below with the index's own porter-stemmed FTS). The bundled sentence encoder
 * must put the target in the top 3 for at least 80% of the queries (the 12-of-15 bar); BM25 alone cannot.
 */
const FIXTURES = path.join(__dirname, '..', 'fixtures', 'memory');
const quiet = { warn: () => undefined, debug: () => undefined };

interface Case {
  query: string;
  target: string;
}

describe('semantic retrieval with the bundled embedder (offline)', () => {
  let dir: string;
  let memory: AgentMemory;
  let cases: Case[];
  let unrelated: string[];
  let embedder: BundledEmbedder;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'memory-semantic-'));
    cases = JSON.parse(await fs.readFile(path.join(FIXTURES, 'semantic-queries.json'), 'utf8')) as Case[];
    unrelated = JSON.parse(await fs.readFile(path.join(FIXTURES, 'unrelated-queries.json'), 'utf8')) as string[];
    embedder = new BundledEmbedder();
    memory = new AgentMemory({
      agentId: 'eval',
      openIndex: () => new SqliteMemoryIndex(path.join(dir, 'index.sqlite')),
      embedder: () => embedder,
      debounceMs: () => 1500,
      logger: quiet,
    });
    const notes = { name: 'notes', kind: 'path' as const, root: path.join(FIXTURES, 'notes'), pattern: '**/*.md' };
    await memory.configure(dir, [{ ...notes, key: collectionKey(notes) }]);
    await memory.idle();
  }, 120_000);
  afterAll(async () => {
    await memory.close();
    await embedder.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const rankOf = async (c: Case, mode: SearchMode, maxResults = 3): Promise<number> => {
    const hits = await memory.search(c.query, { maxResults, maxSnippetChars: 200, mode });
    return hits.findIndex((h) => path.basename(h.path) === c.target);
  };

  it('has a corpus of 30+ notes and at least 15 queries, each sharing no stemmed keyword with its target', async () => {
    expect((await fs.readdir(path.join(FIXTURES, 'notes'))).filter((f) => f.endsWith('.md')).length).toBeGreaterThanOrEqual(30);
    expect(cases.length).toBeGreaterThanOrEqual(15);
    const stats = memory.stats();
    expect(stats[0]).toMatchObject({ files: 32, chunks: 32, embedded: 32 });
    for (const c of cases) {
      // Keyword-only search over the whole corpus never reaches the target note.
      expect({ query: c.query, rank: await rankOf(c, 'keyword', 100) }).toEqual({ query: c.query, rank: -1 });
    }
  });

  it('puts the target in the top 3 for ≥ 80% of the queries (hybrid and vector); BM25 alone gets fewer', async () => {
    const found: Record<SearchMode, number> = { hybrid: 0, vector: 0, keyword: 0 };
    const misses: string[] = [];
    for (const c of cases) {
      for (const mode of ['hybrid', 'vector', 'keyword'] as const) {
        const rank = await rankOf(c, mode);
        if (rank >= 0) found[mode]++;
        else if (mode === 'hybrid') misses.push(c.query);
      }
    }

    console.log(
      `semantic top-3 over ${cases.length} queries: hybrid ${found.hybrid}, vector ${found.vector}, BM25 ${found.keyword}` +
        (misses.length ? `; hybrid misses: ${misses.join(' | ')}` : ''),
    );
    const bar = Math.ceil(cases.length * 0.8);
    expect(found.hybrid).toBeGreaterThanOrEqual(bar);
    expect(found.vector).toBeGreaterThanOrEqual(bar);
    expect(found.keyword).toBeLessThan(found.hybrid);
  });

  it('scores stay in [0, 1]; a query holding every word of a note scores well above the default threshold', async () => {
    const hits = await memory.search('furnace filter size 16x25', { maxResults: 6, maxSnippetChars: 200 });
    expect(hits[0].path).toBe('notes/furnace.md');
    expect(hits[0].score).toBeGreaterThan(0.75);
    expect(hits.every((h) => h.score >= 0 && h.score <= 1)).toBe(true);
    expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
  });

  it('says "nothing" for unrelated queries at the default minScore, and keeps the paraphrases (precision and recall reported)', async () => {
    const minScore = CONFIG_DEFAULTS.memory.qmd.limits.minScore;
    const top3 = (q: string) => memory.search(q, { maxResults: 3, maxSnippetChars: 200, minScore });
    let found = 0;
    let returned = 0;
    for (const c of cases) {
      const hits = await top3(c.query);
      returned += hits.length;
      if (hits.some((h) => path.basename(h.path) === c.target)) found++;
    }
    const answered: string[] = [];
    for (const q of unrelated) if ((await top3(q)).length) answered.push(q);

    console.log(
      `minScore ${minScore}: paraphrase recall@3 ${found}/${cases.length}, precision ${found}/${returned}; unrelated queries answered ${answered.length}/${unrelated.length}`,
    );
    expect(unrelated.length).toBeGreaterThanOrEqual(20);
    expect(answered).toEqual([]);
    expect(found).toBeGreaterThanOrEqual(Math.ceil(cases.length * 0.85));
  });
});
