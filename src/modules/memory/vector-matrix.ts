/**
 * All vectors of one index in one contiguous Float32Array, scanned in process (no vector extension is
 * installed). Vectors are unit length, so the dot product is the cosine similarity. At 10k × 512 floats a
 * full scan is a few milliseconds; the matrix is rebuilt lazily after the index changes.
 */
export class VectorMatrix {
  readonly size: number;
  private readonly data: Float32Array;
  private readonly ids: Int32Array;
  /** Index into `keys` of each row's collection, to filter by collection without string compares. */
  private readonly keyOf: Uint16Array;
  private readonly keys: string[];

  constructor(
    readonly dims: number,
    rows: ReadonlyArray<{ id: number; collectionKey: string; vec: Uint8Array }>,
  ) {
    this.size = rows.length;
    this.data = new Float32Array(rows.length * dims);
    this.ids = new Int32Array(rows.length);
    this.keyOf = new Uint16Array(rows.length);
    const keyIndex = new Map<string, number>();
    this.keys = [];
    const bytes = new Uint8Array(this.data.buffer);
    rows.forEach((row, r) => {
      this.ids[r] = row.id;
      let k = keyIndex.get(row.collectionKey);
      if (k === undefined) {
        k = this.keys.push(row.collectionKey) - 1;
        keyIndex.set(row.collectionKey, k);
      }
      this.keyOf[r] = k;
      // Copy bytes rather than viewing the blob: its byteOffset need not be 4-aligned.
      bytes.set(row.vec.subarray(0, dims * 4), r * dims * 4);
    });
  }

  /** Row of each id, built on first use (a keyword hit's similarity is looked up by id). */
  private rowOf?: Map<number, number>;

  /** Cosine similarity of the query with each of these ids that has a vector here. */
  scoresOf(query: Float32Array, ids: readonly number[]): Map<number, number> {
    const out = new Map<number, number>();
    if (query.length !== this.dims) return out;
    if (!this.rowOf) this.rowOf = new Map(Array.from(this.ids, (id, r) => [id, r]));
    for (const id of ids) {
      const r = this.rowOf.get(id);
      if (r === undefined) continue;
      let dot = 0;
      const base = r * this.dims;
      for (let d = 0; d < this.dims; d++) dot += this.data[base + d] * query[d];
      out.set(id, dot);
    }
    return out;
  }

  /** The `limit` most similar rows among the allowed collections (id and cosine), best first; undefined if none qualify. */
  search(query: Float32Array, collectionKeys: readonly string[], limit: number): Array<{ id: number; score: number }> | undefined {
    if (query.length !== this.dims) return undefined;
    const allowed = new Uint8Array(this.keys.length);
    const wanted = new Set(collectionKeys);
    let anyAllowed = false;
    this.keys.forEach((k, i) => {
      if (!wanted.has(k)) return;
      allowed[i] = 1;
      anyAllowed = true;
    });
    if (!anyAllowed) return undefined;
    // Keep the best `limit` in a small sorted buffer: O(n · limit) worst case, O(n) typical.
    const topScores = new Float32Array(limit).fill(-Infinity);
    const topRows = new Int32Array(limit).fill(-1);
    const { data, dims } = this;
    for (let r = 0; r < this.size; r++) {
      if (!allowed[this.keyOf[r]]) continue;
      let dot = 0;
      const base = r * dims;
      for (let d = 0; d < dims; d++) dot += data[base + d] * query[d];
      if (dot <= topScores[limit - 1]) continue;
      let pos = limit - 1;
      while (pos > 0 && topScores[pos - 1] < dot) {
        topScores[pos] = topScores[pos - 1];
        topRows[pos] = topRows[pos - 1];
        pos--;
      }
      topScores[pos] = dot;
      topRows[pos] = r;
    }
    const out: Array<{ id: number; score: number }> = [];
    for (let i = 0; i < limit && topRows[i] >= 0; i++) out.push({ id: this.ids[topRows[i]], score: topScores[i] });
    return out;
  }
}

/** Scales to unit length (a zero vector stays zero). */
export function normalize(vector: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(vector);
  let norm = 0;
  for (let i = 0; i < out.length; i++) norm += out[i] * out[i];
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i] /= norm;
  return out;
}

/** The dot product of two vectors of the same length: their cosine when both are unit vectors. */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let d = 0; d < a.length; d++) sum += a[d] * b[d];
  return sum;
}
