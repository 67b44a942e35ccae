import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HashingEmbedder } from '../../../test/fixtures/memory/hashing-embedder';
import { AgentMemory } from './agent-memory';
import type { Reranker } from './embedder.port';
import { collectionKey } from './memory-collections';
import { SqliteMemoryIndex } from './sqlite-memory-index';

/** Says how similar each text is by a number it carries ("score 0.83"); counts its calls. */
class NumberReranker implements Reranker {
  calls: Array<{ query: string; texts: string[] }> = [];
  fail = false;
  rescored = RERANK_DEPTH;
  depth(): number {
    return this.rescored;
  }
  async similarities(query: string, texts: readonly string[]): Promise<number[]> {
    this.calls.push({ query, texts: [...texts] });
    if (this.fail) throw new Error('model worker gone');
    return texts.map((t) => Number(/score (\d\.\d+)/.exec(t)?.[1] ?? 0));
  }
}

const RERANK_DEPTH = 10;

class RerankedEmbedder extends HashingEmbedder {
  constructor(readonly reranker: NumberReranker) {
    super();
  }
}

describe('MemorySearcher with an embedder that reranks (bundled-static)', () => {
  let root: string;
  let memory: AgentMemory;
  let reranker: NumberReranker;
  const warnings: string[] = [];
  const opts = { maxResults: 3, maxSnippetChars: 200 };
  const names = (hits: Array<{ path: string }>) => hits.map((h) => path.basename(h.path));

  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'rerank-'));
    const notes = path.join(root, 'notes');
    await fs.mkdir(notes);
    // 14 notes that all share the query's words, so both lists hold every one; the reranker's score is in the text.
    for (let i = 0; i < 14; i++)
      await fs.writeFile(path.join(notes, `n${String(i).padStart(2, '0')}.md`), `garden hose note, score 0.${10 + i * 5}\n`);
    reranker = new NumberReranker();
    const embedder = new RerankedEmbedder(reranker);
    memory = new AgentMemory({
      agentId: 'a',
      openIndex: () => new SqliteMemoryIndex(path.join(root, 'index.sqlite')),
      embedder: () => embedder,
      debounceMs: () => 60_000,
      logger: { warn: (m: string) => warnings.push(m), debug: () => undefined },
    });
    const c = { name: 'notes', kind: 'path' as const, root: notes, pattern: '**/*.md' };
    await memory.configure(root, [{ ...c, key: collectionKey(c) }]);
    await memory.idle();
    warnings.length = 0;
  });
  afterEach(async () => {
    await memory.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  it('ranks and scores the best candidates by the reranker, and keeps only those it scored', async () => {
    const hits = await memory.search('hose', { ...opts, mode: 'vector' });
    expect(reranker.calls).toEqual([{ query: 'hose', texts: expect.any(Array) }]);
    const scored = reranker.calls[0].texts;
    expect(scored).toHaveLength(RERANK_DEPTH);
    // Vector mode: the score is the reranker's similarity alone; the three best of those it scored, best first.
    const best = scored.map((t) => Number(/score (\d\.\d+)/.exec(t)![1])).sort((a, b) => b - a);
    expect(hits.map((h) => h.score)).toEqual(best.slice(0, 3));
    for (const h of hits) expect(h.snippet).toContain(`score ${h.score.toFixed(2)}`);
    // Asked for more than the depth: every result it returns was rescored, and no other.
    const many = await memory.search('hose', { ...opts, mode: 'vector', maxResults: RERANK_DEPTH + 2 });
    expect(reranker.calls[1].texts).toHaveLength(RERANK_DEPTH + 2);
    expect(many).toHaveLength(RERANK_DEPTH + 2);
  });

  it('applies minScore to the reranker’s scores, keyword coverage raising them as usual', async () => {
    // "garden hose": coverage 1 for every note, so relevance = max(sim, (1 + sim) / 2) ≥ 0.5.
    const hybrid = await memory.search('garden hose', { ...opts, minScore: 0.7 });
    expect(hybrid.length).toBeGreaterThan(0);
    for (const h of hybrid) expect(h.score).toBeCloseTo((1 + Number(/score (\d\.\d+)/.exec(h.snippet)![1])) / 2, 4);
    expect(await memory.search('hose', { ...opts, mode: 'vector', minScore: 0.9 })).toEqual([]);
  });

  it('keeps the vector ranking with a warning when the reranker fails, and is not asked for keyword-only searches', async () => {
    reranker.fail = true;
    const hits = await memory.search('garden hose', opts);
    expect(hits).toHaveLength(3);
    expect(warnings).toEqual([expect.stringContaining('reranking failed, keeping the vector ranking: model worker gone')]);
    reranker.calls.length = 0;
    expect(names(await memory.search('garden hose', { ...opts, mode: 'keyword' }))).toHaveLength(3);
    expect(reranker.calls).toEqual([]);
  });

  it('leaves the vector ranking and scores alone at depth 0 (memory.embeddings.rerank: 0)', async () => {
    reranker.rescored = 0;
    const hits = await memory.search('hose', { ...opts, mode: 'vector' });
    expect(reranker.calls).toEqual([]);
    expect(hits).toHaveLength(3);
    // The hashing embedder's cosines, not the numbers the reranker would have given.
    for (const h of hits) expect(h.snippet).not.toContain(`score ${h.score.toFixed(2)}`);
  });
});
