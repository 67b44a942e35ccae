/**
 * The Embedder port: text → unit-length vectors. `fingerprint` names the model (and endpoint) that made a
 * vector; the index stores it with every vector and re-embeds when it changes. Provider `none` is no
 * embedder at all (keyword search only).
 */
export interface Embedder {
  readonly fingerprint: string;
  /** One vector per input, same order, L2-normalized. */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
  /**
   * Rescores a search's best candidates with a better model than the one that made the stored vectors
   * (`bundled-static`: the bundled model, at query time only). Its similarities replace the vector list's
   * in the relevance of those candidates, so `minScore` reads them on that model's scale.
   */
  readonly reranker?: Reranker;
  /** Releases what the embedder holds (worker threads); optional for embedders that hold nothing. */
  close?(): Promise<void>;
}

export interface EmbedOptions {
  signal?: AbortSignal;
  /** `query`: a search waits for it, so it goes ahead of background indexing where the embedder queues [index]. */
  priority?: 'query' | 'index';
}

export interface Reranker {
  /** How many of a search's best candidates to rescore, read at every search (0: none). */
  depth(): number;
  /** Cosine similarity of the query with each text, in the order given. */
  similarities(query: string, texts: readonly string[]): Promise<number[]>;
  /**
   * The model behind the similarities, when its chunk vectors may be stored in the index under its
   * fingerprint (memory-upgrade.ts): a chunk is then embedded by it once, a background pass fills the vectors
   * of the rest, and a search whose chunks all have one reads the model's own vector list.
   */
  readonly model?: Embedder;
  close?(): Promise<void>;
}
