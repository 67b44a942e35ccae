import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HashingEmbedder } from '../../../test/fixtures/memory/hashing-embedder';
import { AgentMemory } from './agent-memory';
import type { EmbedOptions, Reranker } from './embedder.port';
import { collectionKey } from './memory-collections';
import { MemorySearcher } from './memory-searcher';
import { SqliteMemoryIndex } from './sqlite-memory-index';

/** The "full model": another hashing embedder, recording every text it embeds and at which priority. */
class RecordingModel extends HashingEmbedder {
  texts: Array<{ text: string; priority?: string }> = [];
  failBackground = false;
  constructor() {
    super(32, 'test:model-32');
  }
  override async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    if (this.failBackground && options.priority !== 'query') throw new Error('model worker exited');
    for (const text of texts) this.texts.push({ text, priority: options.priority });
    return super.embed(texts);
  }
}

/** A reranker whose model's vectors may be stored (as bundled-static's FullModelReranker). */
class StoringReranker implements Reranker {
  similarityCalls = 0;
  constructor(
    readonly model: RecordingModel,
    public rescored = 10,
  ) {}
  depth(): number {
    return this.rescored;
  }
  async similarities(): Promise<number[]> {
    this.similarityCalls++;
    throw new Error('a reranker with a storable model is asked through its model');
  }
}

class StaticLike extends HashingEmbedder {
  constructor(readonly reranker: StoringReranker) {
    super(64, 'test:static-64');
  }
}

const NOTES = Array.from({ length: 12 }, (_, i) => `garden hose note ${i} about watering plot ${i * 7}\n`);
const opts = { maxResults: 3, maxSnippetChars: 200 };

describe('the model vectors of bundled-static (stored once, filled in the background)', () => {
  let root: string;
  let model: RecordingModel;
  let reranker: StoringReranker;
  const warnings: string[] = [];
  const indexFile = () => path.join(root, 'index.sqlite');
  const collection = () => {
    const c = { name: 'notes', kind: 'path' as const, root: path.join(root, 'notes'), pattern: '**/*.md' };
    return { ...c, key: collectionKey(c) };
  };

  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'upgrade-'));
    await fs.mkdir(path.join(root, 'notes'));
    for (const [i, text] of NOTES.entries()) await fs.writeFile(path.join(root, 'notes', `n${String(i).padStart(2, '0')}.md`), text);
    model = new RecordingModel();
    reranker = new StoringReranker(model);
    warnings.length = 0;
  });
  afterEach(() => fs.rm(root, { recursive: true, force: true }));

  const open = (rerank = 10) => {
    reranker.rescored = rerank;
    const embedder = new StaticLike(reranker);
    return new AgentMemory({
      agentId: 'a',
      openIndex: () => new SqliteMemoryIndex(indexFile()),
      embedder: () => embedder,
      debounceMs: () => 60_000,
      logger: { warn: (m: string) => warnings.push(m), debug: () => undefined },
    });
  };

  it('embeds a rescored chunk by the model once: the next search embeds only its query', async () => {
    // rerank 0 while indexing: no background pass, so only searches give chunks their model vectors.
    const memory = open(0);
    try {
      await memory.configure(root, [collection()]);
      await memory.upgraded();
      expect(model.texts).toEqual([]);
      reranker.rescored = 10;
      const index = new SqliteMemoryIndex(indexFile());
      const searcher = new MemorySearcher(index, new StaticLike(reranker));
      try {
        const first = await searcher.search('garden hose', [collection()], root, opts);
        expect(first).toHaveLength(3);
        expect(model.texts.map((t) => t.text)).toHaveLength(11); // the query and the 10 best candidates
        expect(model.texts.every((t) => t.priority === 'query')).toBe(true);
        expect(index.missingVectors(model.fingerprint)).toBe(2);
        model.texts = [];
        const again = await searcher.search('watering hose', [collection()], root, opts);
        expect(again).toHaveLength(3);
        expect(model.texts.map((t) => t.text)).toEqual(expect.arrayContaining(['watering hose']));
        // Only the query and the two chunks the first search did not rescore, at most.
        expect(model.texts.length).toBeLessThanOrEqual(3);
        expect(reranker.similarityCalls).toBe(0);
      } finally {
        index.close();
      }
    } finally {
      await memory.close();
    }
  });

  it('fills every chunk’s model vector after indexing; a search then embeds only its query and reads the model’s list', async () => {
    const memory = open();
    try {
      await memory.configure(root, [collection()]);
      await memory.idle();
      await memory.upgraded();
      expect(memory.awaitingModel()).toBe(0);
      expect(model.texts.filter((t) => t.priority === 'query')).toEqual([]);
      expect(model.texts.map((t) => t.text).sort()).toEqual([...NOTES].map((n) => n.trimEnd()).sort());
      model.texts = [];
      const hits = await memory.search('watering plot 35', { ...opts, mode: 'vector' });
      expect(model.texts).toEqual([{ text: 'watering plot 35', priority: 'query' }]);
      // The model's own cosines: the scores are the model's vector similarities, not the static ones.
      const q = model.vector('watering plot 35');
      const cos = (t: string) => model.vector(t).reduce((s, x, d) => s + x * q[d], 0);
      const expected = NOTES.map((n) => Math.round(cos(n.trimEnd()) * 10_000) / 10_000).sort((a, b) => b - a);
      expect(hits.map((h) => h.score)).toEqual(expected.slice(0, 3));
      expect(hits[0].snippet).toContain('plot 35');
    } finally {
      await memory.close();
    }
  });

  it('starts filling the model’s vectors on the next search when rerank is turned on (a hot setting)', async () => {
    const memory = open(0);
    try {
      await memory.configure(root, [collection()]);
      await memory.upgraded();
      expect(memory.awaitingModel()).toBe(0); // rerank 0: nothing to wait for
      reranker.rescored = 10;
      expect(memory.awaitingModel()).toBe(NOTES.length);
      await memory.search('garden hose', opts);
      await memory.upgraded();
      expect(memory.awaitingModel()).toBe(0);
    } finally {
      await memory.close();
    }
  });

  it('keeps searching (rescoring at query time) when the background pass fails, and says why', async () => {
    model.failBackground = true;
    const memory = open();
    try {
      await memory.configure(root, [collection()]);
      await memory.upgraded();
      expect(memory.upgradeError).toBe('model worker exited');
      expect(memory.awaitingModel()).toBe(NOTES.length);
      expect(warnings).toEqual([expect.stringContaining('model worker exited')]);
      const hits = await memory.search('garden hose plot 35', opts);
      expect(hits).toHaveLength(3);
      expect(hits[0].snippet).toContain('plot 35');
      expect(model.texts.filter((t) => t.priority === 'query')).toHaveLength(11);
      expect(memory.awaitingModel()).toBe(NOTES.length - 10);
    } finally {
      await memory.close();
    }
  });

  it('keeps the model’s vectors beside its own when the index selects the embedder, and drops others', async () => {
    const index = new SqliteMemoryIndex(indexFile());
    try {
      index.replaceFile({ collectionKey: 'k', collection: 'notes', path: '/n.md', rel: 'n.md', hash: 'h', size: 1, mtimeMs: 1 }, [
        { startLine: 1, endLine: 1, text: 'garden hose' },
      ]);
      const [id] = index.keywordSearch('"hose"', ['k'], 5);
      for (const fp of ['static', 'model', 'old']) index.storeChunkVectors(fp, [{ id, vector: Float32Array.of(1, 0) }]);
      index.useFingerprint('static', ['model']);
      expect(index.missingVectors('static')).toBe(0);
      expect(index.missingVectors('model')).toBe(0);
      expect(index.missingVectors('old')).toBe(1);
      expect([...index.storedVectors('model', [id]).values()]).toEqual([Float32Array.of(1, 0)]);
    } finally {
      index.close();
    }
  });
});
