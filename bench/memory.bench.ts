/**
 * Memory at scale. Run: `npm run bench:memory` (about 1.5 min with the defaults; longer with more real chunks).
 *
 * 1. Search at 10,000 chunks: a synthetic Markdown corpus (sections of ~350 tokens from a Zipf-distributed
 *    vocabulary) is scanned, hashed, chunked and written to the per-agent SQLite/FTS5 index by the real
 *    AgentMemory; its 10,000 vectors are pseudo-random unit vectors under the bundled fingerprint (same
 *    size, storage and scan cost as real ones, no model time). Keyword-only (BM25), vector-only and hybrid
 *    search through AgentMemory.search, the query vector precomputed ("excluding query embedding"), and
 *    hybrid with the bundled model embedding each query in its worker ("including"); 200 queries each after
 *    a warm-up.
 * 2. Real embedding under load (bench/support/memory-load.ts): BENCH_REAL_EMBED [500] chunks of real prose (the
 *    project's docs and the READMEs of the installed packages) embedded by the bundled model inside a
 *    gateway process that serves blocking A2A SendMessage calls meanwhile: chunks/s, SendMessage p50/p99 (BENCH_A2A_RATE [200] calls/s) and
 *    the gateway's event-loop delay while indexing against the same traffic idle, then search latency
 *    through the admin endpoint (query embedding included) over the real index. BENCH_WORKERS [1] sets
 *    memory.embeddings.workers.
 * 3. Retrieval quality: recall@3 of the paraphrase set (test/fixtures/memory) with the bundled model, with
 *    no threshold and at the default minScore, and how many of the unrelated queries answer anything.
 *
 * Parts 2 and 3 run for each embedder of BENCH_PROVIDERS [bundled,bundled-static@0,bundled-static], side by side
 * (the static table is built before its gateway starts, timed on its own; its searches rescore their best
 * BENCH_RERANK [10] candidates with the bundled model, `@n` overrides that: `bundled-static@0` is the static
 * vectors alone). With rerank > 0 a background pass gives every chunk the bundled model's vector after indexing,
 * so searches are measured twice: right after indexing ("cold") and once that pass is done ("warm"). BENCH_PARTS
 * [1,2,3] picks the parts (4: warm search of static+upgrade against bundled, interleaved on one index,
 * bench/support/memory-warm.ts); the load average is printed beside each part's figures.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CONFIG_DEFAULTS } from '../src/modules/config';
import {
  AgentMemory,
  BundledEmbedder,
  chunkFile,
  collectionKey,
  type Embedder,
  type SearchMode,
  SqliteMemoryIndex,
  StaticEmbedder,
} from '../src/modules/memory';
import { measureUnderLoad } from './support/memory-load';
import { warmSideBySide } from './support/memory-warm';
import { writeRealCorpus } from './support/real-corpus';

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 10_000);
const QUERIES = 200;
const WARMUP = 20;
const EMBED_SAMPLE = 200;
const REAL_CHUNKS = Number(process.env.BENCH_REAL_EMBED ?? 500);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 1);
const FULL_EMBED = process.env.BENCH_FULL_EMBED === '1';
const BUNDLED = new BundledEmbedder().fingerprint;
/** bundled-static: candidates the bundled model rescores per search [BENCH_RERANK: 10, memory.embeddings.rerank; 0 none]. */
const RERANK = Number(process.env.BENCH_RERANK ?? 10);
/** Embedders compared side by side in parts 2 and 3 [BENCH_PROVIDERS: bundled,bundled-static@0,bundled-static]. */
const PROVIDERS = (process.env.BENCH_PROVIDERS ?? 'bundled,bundled-static@0,bundled-static').split(',').map((spec) => {
  const [provider, rerank] = spec.split('@') as ['bundled' | 'bundled-static', string | undefined];
  const depth = rerank === undefined ? RERANK : Number(rerank);
  const label = provider === 'bundled' ? 'bundled' : depth > 0 ? 'static+upgrade' : 'static';
  return { provider, rerank: depth, label };
});
/** Parts to run [BENCH_PARTS: 1,2,3]. */
const PARTS = new Set((process.env.BENCH_PARTS ?? '1,2,3').split(',').map(Number));
const loadAverage = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

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
  const bundled = new BundledEmbedder();
  try {
    if (PARTS.has(1)) await searchAtScale(dir, notes, bundled);
    if (PARTS.has(2)) await underLoad(dir);
    if (PARTS.has(3)) {
      console.log(`\n3. retrieval quality (test/fixtures/memory) — load ${loadAverage()}`);
      for (const [i, { provider, rerank, label }] of PROVIDERS.entries()) {
        const embedder =
          provider === 'bundled' ? bundled : new StaticEmbedder({ stateDir: () => path.join(dir, 'static-state'), rerank: () => rerank });
        await recall(path.join(dir, `recall-${i}`), embedder, label);
        if (embedder !== bundled) await embedder.close?.();
      }
    }
    if (PARTS.has(4)) {
      console.log(`\n4. warm search side by side, interleaved on one index — load ${loadAverage()}`);
      await warmSideBySide(dir, searchQueries, RERANK);
    }
  } finally {
    await bundled.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** 110 queries for the search figure: the first words of headings of the real corpus (10 are warm-up). */
async function searchQueries(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of (await fs.readdir(dir)).sort()) {
    for (const line of (await fs.readFile(path.join(dir, name), 'utf8')).split('\n')) {
      const m = /^#{1,4}\s+(.{8,})$/.exec(line);
      if (m) out.push(m[1].split(/\s+/).slice(0, 6).join(' '));
      if (out.length >= 110) return out;
    }
  }
  return out;
}

/**
 * Recall@3 of the paraphrase set, with no threshold and at the default minScore; unrelated queries answered.
 * With a background pass after indexing (static+upgrade), once right after indexing (cold) and once after it.
 */
async function recall(dir: string, embedder: Embedder, label: string): Promise<void> {
  const fixtures = path.join(__dirname, '..', 'test', 'fixtures', 'memory');
  const cases = JSON.parse(await fs.readFile(path.join(fixtures, 'semantic-queries.json'), 'utf8')) as Array<{
    query: string;
    target: string;
  }>;
  const unrelated = JSON.parse(await fs.readFile(path.join(fixtures, 'unrelated-queries.json'), 'utf8')) as string[];
  const memory = new AgentMemory({
    agentId: 'recall',
    openIndex: () => new SqliteMemoryIndex(path.join(dir, 'index.sqlite')),
    embedder: () => embedder,
    debounceMs: () => 60_000,
    logger: { warn: (m: string) => console.warn(m), debug: () => undefined },
  });
  const c = { name: 'notes', kind: 'path' as const, root: path.join(fixtures, 'notes'), pattern: '**/*.md' };
  await memory.configure(dir, [{ ...c, key: collectionKey(c) }]);
  await memory.idle();
  const background = memory.awaitingModel() > 0;
  await recallFigures(memory, cases, unrelated, background ? `${label} cold` : label);
  if (background) {
    await memory.upgraded();
    await recallFigures(memory, cases, unrelated, `${label} warm`);
  }
  await memory.close();
}

async function recallFigures(
  memory: AgentMemory,
  cases: ReadonlyArray<{ query: string; target: string }>,
  unrelated: readonly string[],
  label: string,
): Promise<void> {
  const minScore = CONFIG_DEFAULTS.memory.qmd.limits.minScore;
  for (const floor of [0, minScore]) {
    let found = 0;
    let returned = 0;
    for (const q of cases) {
      const hits = await memory.search(q.query, { maxResults: 3, maxSnippetChars: 200, minScore: floor });
      returned += hits.length;
      if (hits.some((h) => path.basename(h.path) === q.target)) found++;
    }
    let answered = 0;
    for (const q of unrelated) if ((await memory.search(q, { maxResults: 3, maxSnippetChars: 200, minScore: floor })).length) answered++;
    console.log(
      `${label.padEnd(20)} minScore ${floor.toFixed(2)}: paraphrase recall@3 ${found}/${cases.length}, precision ${found}/${returned}; unrelated queries answered ${answered}/${unrelated.length}`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

/** Part 1: search latency at 10,000 chunks. */
async function searchAtScale(dir: string, notes: string, bundled: BundledEmbedder): Promise<void> {
  const corpus = await writeCorpus(notes);
  console.log(`1. search at scale — corpus: ${corpus.files} files, ${corpus.chunks} chunks of ≤ 400 tokens`);

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
  await bundled.embed(['warm up']);
  console.log(`bundled model load (worker start):         ${(performance.now() - t).toFixed(0)} ms`);

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
  await run('hybrid (excl. query embedding):', 'hybrid');
  embedder = bundled;
  await run('hybrid (incl. bundled query embedding):', 'hybrid');
  await memory.close();
}

/** Part 2: indexing real prose under A2A load, full model and static table side by side. */
async function underLoad(dir: string): Promise<void> {
  console.log(`\n2. real embedding under A2A load (${REAL_CHUNKS} chunks of real prose, ${WORKERS} worker(s)) — load ${loadAverage()}`);
  const real = path.join(dir, 'real');
  await fs.mkdir(real);
  const realCorpus = await writeRealCorpus(real, REAL_CHUNKS);
  console.log(`corpus: ${realCorpus.files} files, ${realCorpus.chunks} chunks`);
  const queries = await searchQueries(real);
  const searches: string[] = [];
  for (const { provider, rerank, label } of PROVIDERS) {
    const load = await measureUnderLoad(real, queries, WORKERS, provider, rerank);
    const { indexed } = load;
    if (indexed.embedded !== indexed.chunks) throw new Error(`${indexed.embedded} of ${indexed.chunks} chunks embedded`);
    console.log(
      `— ${label} (${provider}, rerank ${provider === 'bundled' ? '—' : rerank})${load.tableSeconds === undefined ? '' : ` (table built beforehand in ${load.tableSeconds.toFixed(1)} s, once per state directory)`}:`,
    );
    console.log(
      `indexed and embedded:                      ${indexed.seconds.toFixed(1)} s → ${(indexed.chunks / indexed.seconds).toFixed(1)} chunks/s (gateway RSS after: ${indexed.rssMiB.toFixed(0)} MiB; load ${loadAverage()})`,
    );
    for (const [label, phase] of [
      ['idle', load.idle],
      ['while indexing', load.indexing],
    ] as const) {
      console.log(
        `SendMessage ${label.padEnd(15)}               p50 ${phase.send.p50.toFixed(2)} ms   p99 ${phase.send.p99.toFixed(2)} ms (n=${phase.send.requests});` +
          `   event loop p99 ${phase.loop.p99.toFixed(1)} ms, max ${phase.loop.max.toFixed(1)} ms`,
      );
    }
    if (indexed.awaitingModel || load.settled.awaitingModel)
      console.log(
        `model vectors after indexing:              ${indexed.awaitingModel} chunks awaited them; all filled ${load.settled.seconds.toFixed(1)} s after indexing ended ` +
          `(${(indexed.awaitingModel / load.settled.seconds).toFixed(1)} chunks/s, ${load.settled.awaitingModel} left)`,
      );
    for (const [when, f] of [
      ['cold', load.search],
      ['warm', load.warmSearch],
    ] as const) {
      const line = `search via admin API, ${when} (incl. query work): p50 ${f.p50.toFixed(2)} ms   p95 ${f.p95.toFixed(2)} ms   p99 ${f.p99.toFixed(2)} ms (n=${f.requests}, ${f.empty} answered nothing at the default minScore)`;
      console.log(line);
      searches.push(`${label.padEnd(15)} ${when}: p50 ${f.p50.toFixed(2).padStart(7)} ms   p99 ${f.p99.toFixed(2).padStart(8)} ms`);
    }
  }
  console.log('search side by side (cold: right after indexing; warm: after the background work):');
  for (const line of searches) console.log(`  ${line}`);
}
