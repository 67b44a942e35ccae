/**
 * The Embedder port: text → unit-length vectors. `fingerprint` names the model (and endpoint) that made a
 * vector; the index stores it with every vector and re-embeds when it changes. Provider `none` is no
 * embedder at all (keyword search only).
 */
export interface Embedder {
  readonly fingerprint: string;
  /** One vector per input, same order, L2-normalized. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}
