/**
 * Memory index and search at 10,000 chunks. Run: `npm run bench:memory` (about a minute).
 *
 * What is measured, and how:
 * - index: a synthetic Markdown corpus (sections of ~350 tokens from a Zipf-distributed vocabulary) is
 *   scanned, hashed, chunked and written to the per-agent SQLite/FTS5 index by the real AgentMemory, then
 *   10,000 vectors of 512 floats are stored. The bundled model computes ~7-30 chunks/s on this machine, so
 *   embedding 10k chunks takes many minutes: its throughput is measured on a sample and the full time is
 *   extrapolated, while the stored vectors are pseudo-random unit vectors tagged with the bundled
 *   fingerprint (same dimension, same storage and scan cost). BENCH_FULL_EMBED=1 embeds all of them for real.
 * - search: keyword-only (BM25), vector-only and hybrid (RRF) through AgentMemory.search, with the query
 *   vector precomputed ("excluding query embedding"), and hybrid with the bundled model embedding each query
 *   ("including"). Each figure is over 200 distinct queries after a warm-up.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentMemory } from '../src/modules/memory/agent-memory';
import { BundledEmbedder } from '../src/modules/memory/bundled-embedder';
import { chunkFile } from '../src/modules/memory/chunker';
import type { Embedder } from '../src/modules/memory/embedder.port';
import { collectionKey } from '../src/modules/memory/memory-collections';
import type { SearchMode } from '../src/modules/memory/memory-searcher';
import { SqliteMemoryIndex } from '../src/modules/memory/sqlite-memory-index';

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 10_000);
const QUERIES = 200;
const WARMUP = 20;
const EMBED_SAMPLE = 200;
const FULL_EMBED = process.env.BENCH_FULL_EMBED === '1';
const BUNDLED = new BundledEmbedder().fingerprint;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}
const rand = rng(7);

/** 3,000 pronounceable words; drawn with a Zipf-like skew so some terms are common and most are rare. */
const VOCAB = Array.from({ length: 3000 }, (_, i) => {
  const syl = ['ka', 'lo', 'mi', 'ren', 'tu', 'sa', 'vor', 'ne', 'di', 'pha', 'gel', 'bru', 'sto', 'wen', 'qui'];
  let w = '';
  let n = i + 7;
  do {
    w += syl[n % syl.length];
    n = Math.floor(n / syl.length);
  } while (n > 0);
  return w;
});
const word = () => VOCAB[Math.floor(VOCAB.length * rand() ** 2.2)];
const sentence = () => {
  const n = 6 + Math.floor(rand() * 12);
  const words = Array.from({ length: n }, word);
  return `${words[0][0].toUpperCase()}${words.join(' ').slice(1)}.`;
};
const section = (i: number) => {
  const paragraphs = Array.from({ length: 3 }, () => Array.from({ length: 5 }, sentence).join(' '));
  return `## Section ${i} ${word()}\n\n${paragraphs.join('\n\n')}\n`;
};

async function writeCorpus(dir: string): Promise<{ files: number; chunks: number; sample: string[] }> {
  let chunks = 0;
  let files = 0;
  const sample: string[] = [];
  while (chunks < CHUNKS) {
    let text = `# Note ${files}\n\n`;
    for (let s = 0; s < 10; s++) text += `${section(s)}\n`;
    let fileChunks = chunkFile('markdown', text);
    if (chunks + fileChunks.length > CHUNKS) {
      // Trim the last file so the corpus holds exactly CHUNKS chunks.
      const keep = fileChunks[CHUNKS - chunks - 1];
      text = text.split('\n').slice(0, keep.endLine).join('\n');
      fileChunks = chunkFile('markdown', text);
    }
    if (sample.length < EMBED_SAMPLE) sample.push(...fileChunks.slice(0, EMBED_SAMPLE - sample.length).map((c) => c.text));
    await fs.writeFile(path.join(dir, `note-${String(files).padStart(5, '0')}.md`), text);
    chunks += fileChunks.length;
    files++;
  }
  return { files, chunks, sample };
}

/**
 * Bulk fill for the 10k index: a pseudo-random unit vector per text (seeded by its hash), tagged with the
 * bundled fingerprint. Meaningless as semantics, identical to real vectors in size, storage and scan cost.
 */
class FillEmbedder implements Embedder {
  readonly fingerprint = BUNDLED;
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return texts.map((t) => {
      const next = rng(createHash('md5').update(t).digest().readUInt32LE(0));
      const v = Float32Array.from({ length: 512 }, () => next() - 0.5);
      const norm = Math.hypot(...v);
      return v.map((x) => x / norm);
    });
  }
}

/** Returns vectors computed beforehand, under the bundled fingerprint: search timing without the model. */
class PrecomputedEmbedder implements Embedder {
  readonly fingerprint = BUNDLED;
  constructor(private readonly vectors: Map<string, Float32Array>) {}
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.vectors.get(t) as Float32Array);
  }
}

function percentiles(times: number[]): string {
  const s = [...times].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
  return `p50 ${at(50).toFixed(2)} ms   p95 ${at(95).toFixed(2)} ms   (n=${s.length})`;
}

async function main(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-memory-bench-'));
  const notes = path.join(dir, 'notes');
  await fs.mkdir(notes);
  try {
    const corpus = await writeCorpus(notes);
    console.log(`corpus: ${corpus.files} files, ${corpus.chunks} chunks of ≤ 400 tokens`);

    let embedder: Embedder | undefined;
    const memory = new AgentMemory({
      agentId: 'bench',
      openIndex: () => new SqliteMemoryIndex(path.join(dir, 'agents', 'bench', 'memory', 'index.sqlite')),
      embedder: () => embedder,
      debounceMs: () => 60_000,
      logger: { warn: (m: string) => console.warn(m), debug: () => undefined },
    });
    const c = { name: 'notes', kind: 'path' as const, root: notes, pattern: '**/*.md' };
    await memory.configure(dir, [{ ...c, key: collectionKey(c) }]);

    let t = performance.now();
    await memory.ready();
    const keywordIndexMs = performance.now() - t;
    console.log(`index (scan + hash + chunk + FTS5):        ${(keywordIndexMs / 1000).toFixed(2)} s`);

    t = performance.now();
    const bundled = new BundledEmbedder();
    await bundled.embed(['warm up']);
    console.log(`bundled model load (worker start):         ${(performance.now() - t).toFixed(0)} ms`);
    t = performance.now();
    await bundled.embed(corpus.sample);
    const perChunk = (performance.now() - t) / corpus.sample.length;
    console.log(
      `bundled embedding of chunks:               ${perChunk.toFixed(1)} ms/chunk (${(1000 / perChunk).toFixed(1)} chunks/s) → ~${((perChunk * CHUNKS) / 60_000).toFixed(1)} min for ${CHUNKS}`,
    );

    embedder = FULL_EMBED ? bundled : new FillEmbedder();
    t = performance.now();
    memory.embedderChanged();
    await memory.idle();
    const vectorMs = performance.now() - t;
    console.log(
      `store ${CHUNKS} vectors (${FULL_EMBED ? 'bundled model' : 'synthetic fill, no model time'}): ${(vectorMs / 1000).toFixed(2)} s`,
    );
    console.log(`index total (excl. model time):            ${((keywordIndexMs + (FULL_EMBED ? 0 : vectorMs)) / 1000).toFixed(2)} s`);
    const stats = memory.stats()[0];
    if (stats.chunks !== CHUNKS || stats.embedded !== CHUNKS)
      throw new Error(`index holds ${stats.chunks} chunks, ${stats.embedded} embedded`);

    const queries = Array.from({ length: QUERIES + WARMUP }, () => `${word()} ${word()} ${VOCAB[Math.floor(rand() * 600)]}`);
    const vectors = new Map<string, Float32Array>();
    const embedTimes: number[] = [];
    for (const q of queries) {
      const s = performance.now();
      vectors.set(q, (await bundled.embed([q]))[0]);
      embedTimes.push(performance.now() - s);
    }
    console.log(`query embedding (bundled):                 ${percentiles(embedTimes.slice(WARMUP))}`);

    embedder = new PrecomputedEmbedder(vectors);
    t = performance.now();
    await memory.search(queries[0], { maxResults: 6, maxSnippetChars: 700, mode: 'vector' });
    console.log(`first vector search (loads the matrix):    ${(performance.now() - t).toFixed(1)} ms`);

    const run = async (label: string, mode: SearchMode) => {
      const times: number[] = [];
      for (const [i, q] of queries.entries()) {
        const s = performance.now();
        const hits = await memory.search(q, { maxResults: 6, maxSnippetChars: 700, mode });
        if (i >= WARMUP) times.push(performance.now() - s);
        if (!hits.length && mode !== 'keyword') throw new Error(`no results for ${q}`);
      }
      console.log(`${label.padEnd(43)}${percentiles(times)}`);
    };
    await run('keyword only (BM25):', 'keyword');
    await run('vector only (excl. query embedding):', 'vector');
    await run('hybrid RRF (excl. query embedding):', 'hybrid');
    embedder = bundled;
    await run('hybrid RRF (incl. bundled query embedding):', 'hybrid');
    await memory.close();
    await bundled.close();
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
