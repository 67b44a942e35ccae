import { BUNDLED_MODEL_WORKER_SOURCE, bundledModelWorkerData } from './bundled-model-worker';
import { EmbeddingPool, EmbeddingPoolStats } from './embedding-pool';
import type { EmbedOptions, Embedder } from './embedder.port';

/**
 * Texts per batch sent to a worker. The model costs about the same per text in batches of 1, 8 or 32
 * (measured: ~60 ms of CPU per 128-token text either way), so batches are kept small: a search's query
 * waits at most for the batch in progress (~4 × 60 ms) before it goes ahead of the indexing backlog.
 */
const TEXTS_PER_BATCH = 4;

export interface BundledEmbedderOptions {
  /** Worker threads [memory.embeddings.workers], read at every batch. */
  workers?: () => number;
  onEvent?: (message: string) => void;
}

/**
 * `bundled`: Universal Sentence Encoder lite (512 dims) from `@energetic-ai/embeddings`, fully offline,
 * computed in worker threads so the event loop that serves requests never runs the model. The model loads
 * once per worker on its first batch (~1 s). Close the embedder to stop its workers.
 */
/** What the bundled model's vectors are stored under (bundled-static stores its rescoring vectors under it too). */
export const BUNDLED_FINGERPRINT = 'bundled:use-lite-512';

export class BundledEmbedder implements Embedder {
  readonly fingerprint = BUNDLED_FINGERPRINT;
  private readonly pool: EmbeddingPool;

  constructor(options: BundledEmbedderOptions = {}) {
    this.pool = new EmbeddingPool({
      source: BUNDLED_MODEL_WORKER_SOURCE,
      workerData: bundledModelWorkerData(),
      size: options.workers ?? (() => 1),
      onEvent: options.onEvent,
    });
  }

  embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    return this.pool.runBatched(texts, TEXTS_PER_BATCH, options.priority ?? 'index', options.signal);
  }

  /** Vocabulary pieces by id, each embedded alone (the static table's build, static-embedder.ts). */
  embedPieces(pieces: readonly number[]): Promise<Float32Array[]> {
    return this.pool.runPieces(pieces, 'index');
  }

  stats(): EmbeddingPoolStats {
    return this.pool.stats();
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
