import { createHash } from 'node:crypto';
import { CONFIG_DEFAULTS } from '../config';
import { BUNDLED_FINGERPRINT, BundledEmbedder, BundledEmbedderOptions } from './bundled-embedder';
import type { EmbedOptions, Embedder, Reranker } from './embedder.port';
import { dot } from './vector-matrix';

/** Chunk vectors kept between searches (2 KiB each: ~8 MiB); the oldest goes first. */
const CACHE_SIZE = 4096;

export interface FullModelRerankerOptions extends BundledEmbedderOptions {
  /** Candidates rescored per search [memory.embeddings.rerank, 10]; 0 turns the reranker off. */
  depth?: () => number;
  /** Candidate vectors kept between searches [4096]. */
  cacheSize?: number;
  /** Tests: texts → unit vectors instead of the bundled model. */
  embed?: (texts: readonly string[]) => Promise<Float32Array[]>;
}

/**
 * The bundled model at query time, for `bundled-static` (docs/memory.md#the-static-embedder-bundled-static):
 * the query and the few candidate chunks the static vectors ranked best are embedded by the full model and
 * compared there. Searches over an index go through `model` (model-rescore.ts): a candidate's vector is then
 * stored in the index and a background pass fills the others (model-upgrade.ts). `similarities` serves callers
 * without an index, from a cache of recent candidates. The model's worker starts on first use and stays.
 */
export class FullModelReranker implements Reranker {
  /** The bundled model itself, under its own fingerprint: the vectors it makes are the `bundled` embedder's. */
  readonly model: Embedder = {
    fingerprint: BUNDLED_FINGERPRINT,
    // Background work unless told otherwise: a search's own calls go ahead of it.
    embed: (texts, options) => this.embed(texts, { priority: 'index', ...options }),
  };
  private bundled?: BundledEmbedder;
  /** Insertion order is recency: a hit is moved to the end. */
  private readonly cache = new Map<string, Float32Array>();

  constructor(private readonly options: FullModelRerankerOptions = {}) {}

  depth(): number {
    return this.options.depth?.() ?? CONFIG_DEFAULTS.memory.embeddings.rerank;
  }

  async similarities(query: string, texts: readonly string[]): Promise<number[]> {
    const keys = texts.map(digest);
    const missing = [...new Set(keys.filter((k) => !this.cache.has(k)))];
    const todo = missing.map((k) => texts[keys.indexOf(k)]);
    const [q, ...fresh] = await this.embed([query, ...todo]);
    // Every vector is taken before any is remembered: remembering may evict one this search still needs.
    const vectors = keys.map((k) => this.cache.get(k) ?? fresh[missing.indexOf(k)]);
    keys.forEach((k, i) => this.remember(k, vectors[i]));
    return vectors.map((v) => dot(v, q));
  }

  async close(): Promise<void> {
    const model = this.bundled;
    this.bundled = undefined;
    await model?.close();
  }

  private embed(texts: readonly string[], options: EmbedOptions = { priority: 'query' }): Promise<Float32Array[]> {
    if (this.options.embed) return this.options.embed(texts);
    this.bundled ??= new BundledEmbedder({ workers: this.options.workers, onEvent: this.options.onEvent });
    return this.bundled.embed(texts, options);
  }

  private remember(key: string, vector: Float32Array): void {
    this.cache.delete(key);
    this.cache.set(key, vector);
    if (this.cache.size > (this.options.cacheSize ?? CACHE_SIZE)) this.cache.delete(this.cache.keys().next().value as string);
  }
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}
