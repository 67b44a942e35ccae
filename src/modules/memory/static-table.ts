import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../common/fs/private-files';

/**
 * The static token-vector table of `bundled-static` (docs/memory.md#the-static-embedder-bundled-static): one vector per
 * vocabulary piece of the bundled model, each computed once by the model itself from that piece alone, and a
 * weight per piece. A text's vector is the weighted mean of its pieces' vectors, L2-normalized.
 *
 * Weights are smooth inverse frequency, w = a / (a + p), with p = exp(score): the vocabulary is a
 * unigram sentence-piece model whose scores are log-probabilities, so p is how often the piece occurs in the
 * text the model was trained on. Frequent pieces ("▁the", ",", "s") weigh little, rare and topical ones
 * about 1. The reserved pieces (unknown, <s>, </s>, extra ids) weigh 0: their vectors carry no meaning.
 */
export interface StaticTable {
  dims: number;
  /** pieces × dims, row-major; each row L2-normalized (a zero row for a piece the model gave nothing). */
  vectors: Float32Array;
  /** One per piece; 0 leaves the piece out. */
  weights: Float32Array;
}

/** The `a` of a / (a + p): the usual value; 1e-2 and 1e-4 scored the same on the paraphrase set. */
export const SIF_A = 1e-3;

/** Principal directions taken out of the table (removeCommonDirections); 16 measured best of 0–32. */
export const COMMON_DIRECTIONS = 16;

/** Pieces at the head of the vocabulary that are markers, not text. */
export const RESERVED_PIECES = 6;

/** Smooth inverse frequency weights from the vocabulary's log-probability scores. */
export function pieceWeights(scores: readonly number[], a = SIF_A, reserved = RESERVED_PIECES): Float32Array {
  const out = new Float32Array(scores.length);
  for (let i = reserved; i < scores.length; i++) {
    const p = Math.exp(Math.min(0, scores[i]));
    out[i] = a / (a + p);
  }
  return out;
}

/** The weighted mean of the pieces' vectors, L2-normalized; a zero vector when no piece has a weight. */
export function embedPieces(table: StaticTable, pieces: ArrayLike<number>, out = new Float32Array(table.dims)): Float32Array {
  const { dims, vectors, weights } = table;
  out.fill(0);
  for (let i = 0; i < pieces.length; i++) {
    const id = pieces[i];
    const w = id >= 0 && id < weights.length ? weights[id] : 0;
    if (!w) continue;
    const base = id * dims;
    for (let d = 0; d < dims; d++) out[d] += w * vectors[base + d];
  }
  let norm = 0;
  for (let d = 0; d < dims; d++) norm += out[d] * out[d];
  if (norm > 0) {
    const inv = 1 / Math.sqrt(norm);
    for (let d = 0; d < dims; d++) out[d] *= inv;
  }
  return out;
}

/** Rows of the table processed between two yields to the event loop (~2–5 ms of work). */
const ROWS_PER_TURN = 1024;

/**
 * The table with what every piece's vector shares taken out: the mean of the pieces (weighted by `mass`,
 * how often each occurs) is subtracted, then the top `count` principal directions of the centred pieces are
 * projected out (power iteration from a fixed start, so the result is deterministic). Left in, they make
 * any two texts look alike (cosine ~0.9 between unrelated texts); taken out, similarity follows what the
 * texts are about. Both steps are linear, so the weighted mean of the processed rows is the processed
 * weighted mean. Pieces without mass (reserved) are left as they are; they weigh 0 anyway. Yields to the
 * event loop every ROWS_PER_TURN rows (a few ms of work), so requests are served while it runs.
 */
export async function removeCommonDirections(
  vectors: Float32Array,
  dims: number,
  mass: ArrayLike<number>,
  count: number,
  iterations = 20,
): Promise<Float32Array> {
  const pieces = vectors.length / dims;
  const out = Float32Array.from(vectors);
  const center = new Float64Array(dims);
  let total = 0;
  for (let i = 0; i < pieces; i++) {
    if (!mass[i]) continue;
    total += mass[i];
    for (let d = 0; d < dims; d++) center[d] += mass[i] * vectors[i * dims + d];
  }
  if (!total) return out;
  for (let i = 0; i < pieces; i++) {
    if (!mass[i]) continue;
    for (let d = 0; d < dims; d++) out[i * dims + d] -= center[d] / total;
  }
  const used: number[] = [];
  for (let i = 0; i < pieces; i++) if (mass[i]) used.push(i);
  // Directions beyond what the pieces span would be rounding noise: a small table keeps some of its own.
  const directions = Math.min(count, Math.max(0, Math.min(dims, used.length) - 2));
  for (let k = 0; k < directions; k++) {
    let v = new Float64Array(dims).map((_, d) => 1 + ((d * 7919 + k * 104729) % 97) / 97);
    for (let it = 0; it < iterations; it++) {
      const next = new Float64Array(dims);
      for (let n = 0; n < used.length; n++) {
        if (n % ROWS_PER_TURN === 0) await new Promise<void>((resolve) => setImmediate(resolve));
        const base = used[n] * dims;
        let dot = 0;
        for (let d = 0; d < dims; d++) dot += out[base + d] * v[d];
        for (let d = 0; d < dims; d++) next[d] += dot * out[base + d];
      }
      let norm = 0;
      for (let d = 0; d < dims; d++) norm += next[d] * next[d];
      if (!norm) return out;
      norm = Math.sqrt(norm);
      v = next.map((x) => x / norm);
    }
    for (const i of used) {
      const base = i * dims;
      let dot = 0;
      for (let d = 0; d < dims; d++) dot += out[base + d] * v[d];
      for (let d = 0; d < dims; d++) out[base + d] -= dot * v[d];
    }
  }
  return out;
}

/** Normalizes each row in place (rows of zeros stay zero). */
export function normalizeRows(vectors: Float32Array, dims: number): Float32Array {
  for (let base = 0; base < vectors.length; base += dims) {
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += vectors[base + d] ** 2;
    if (!norm) continue;
    const inv = 1 / Math.sqrt(norm);
    for (let d = 0; d < dims; d++) vectors[base + d] *= inv;
  }
  return vectors;
}

/*
 * File format (little-endian): magic "CGSTATIC", u32 version, u32 pieces, u32 dims, u32 key length, key
 * (utf-8: the model fingerprint and the vocabulary digest), the pieces × dims float32 vectors, then the
 * SHA-256 of everything before it. The weights are not stored: they follow from the vocabulary.
 */
const MAGIC = Buffer.from('CGSTATIC');
const VERSION = 1;
const HEADER = MAGIC.length + 16;
const DIGEST = 32;

export function encodeTable(key: string, vectors: Float32Array, dims: number): Buffer {
  const keyBytes = Buffer.from(key, 'utf8');
  const head = Buffer.alloc(HEADER);
  MAGIC.copy(head, 0);
  head.writeUInt32LE(VERSION, 8);
  head.writeUInt32LE(vectors.length / dims, 12);
  head.writeUInt32LE(dims, 16);
  head.writeUInt32LE(keyBytes.length, 20);
  const body = Buffer.from(vectors.buffer, vectors.byteOffset, vectors.byteLength);
  const hash = createHash('sha256').update(head).update(keyBytes).update(body).digest();
  return Buffer.concat([head, keyBytes, body, hash]);
}

/** The vectors of a table file, or the reason it cannot be trusted (another key, wrong size, damaged). */
export function decodeTable(
  data: Buffer,
  expect: { key: string; pieces: number; dims: number },
): { vectors: Float32Array } | { error: string } {
  if (data.length < HEADER + DIGEST || !data.subarray(0, MAGIC.length).equals(MAGIC)) return { error: 'not a table file' };
  if (data.readUInt32LE(8) !== VERSION) return { error: `format version ${data.readUInt32LE(8)}` };
  const pieces = data.readUInt32LE(12);
  const dims = data.readUInt32LE(16);
  const keyLength = data.readUInt32LE(20);
  if (pieces !== expect.pieces || dims !== expect.dims) return { error: `${pieces}×${dims} instead of ${expect.pieces}×${expect.dims}` };
  const bodyStart = HEADER + keyLength;
  const bodyEnd = bodyStart + pieces * dims * 4;
  if (data.length !== bodyEnd + DIGEST) return { error: 'truncated or padded' };
  if (data.toString('utf8', HEADER, bodyStart) !== expect.key) return { error: 'made by another model or vocabulary' };
  const hash = createHash('sha256').update(data.subarray(0, bodyEnd)).digest();
  if (!hash.equals(data.subarray(bodyEnd))) return { error: 'checksum mismatch' };
  const vectors = new Float32Array(pieces * dims);
  Buffer.from(vectors.buffer).set(data.subarray(bodyStart, bodyEnd));
  for (const v of vectors) if (!Number.isFinite(v)) return { error: 'non-finite values' };
  return { vectors };
}

export interface LoadTableOptions {
  file: string;
  /** Identity of what the vectors come from (model fingerprint + vocabulary digest); another key is rebuilt. */
  key: string;
  pieces: number;
  dims: number;
  /** Computes the vectors (pieces × dims) when the file is missing or not trusted. */
  build: () => Promise<Float32Array>;
  /** Hears why a file was rebuilt. */
  onEvent?: (message: string) => void;
}

/**
 * The table's vectors from its file, or built and written (0600, atomically) when the file is missing,
 * damaged or from another model. A table that cannot be written is still used, and built again next time.
 */
export async function loadOrBuildTable(options: LoadTableOptions): Promise<{ vectors: Float32Array; built: boolean }> {
  const { file, key, pieces, dims } = options;
  let data: Buffer | undefined;
  try {
    data = await fs.readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      options.onEvent?.(`static embedding table ${file} unreadable (${(err as Error).message}); rebuilding it`);
  }
  if (data) {
    const decoded = decodeTable(data, { key, pieces, dims });
    if ('vectors' in decoded) return { vectors: decoded.vectors, built: false };
    options.onEvent?.(`static embedding table ${file} not used (${decoded.error}); rebuilding it`);
  }
  const vectors = await options.build();
  if (vectors.length !== pieces * dims)
    throw new Error(`static embedding table: built ${vectors.length} values, expected ${pieces * dims}`);
  try {
    await fs.mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
    const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
    await fs.writeFile(tmp, encodeTable(key, vectors, dims), { mode: PRIVATE_FILE_MODE });
    await fs.rename(tmp, file);
  } catch (err) {
    options.onEvent?.(`static embedding table ${file} could not be saved (${(err as Error).message}); it is rebuilt on the next start`);
  }
  return { vectors, built: true };
}
