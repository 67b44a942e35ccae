import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BundledEmbedder } from './bundled-embedder';
import { StaticEmbedder, Vocabulary } from './static-embedder';
import {
  decodeTable,
  embedPieces,
  encodeTable,
  loadOrBuildTable,
  pieceWeights,
  removeCommonDirections,
  RESERVED_PIECES,
} from './static-table';

const norm = (v: ArrayLike<number>) => Math.sqrt(Array.from(v).reduce((s, x) => s + x * x, 0));

/** A tiny vocabulary: 6 reserved markers, then pieces with log-probabilities (frequent first). */
const VOCAB: Vocabulary = [
  ['�', 0],
  ['<s>', 0],
  ['</s>', 0],
  ['x1', 0],
  ['x2', 0],
  ['x3', 0],
  ['▁the', -2],
  ['▁cat', -9],
  ['▁dog', -9],
  ['s', -3],
  ['▁car', -10],
];
const DIMS = 4;
/** Piece i's "model" vector: a fixed pattern per piece, so a test can tell pieces apart. */
const pieceVector = (id: number) => Float32Array.from({ length: DIMS }, (_, d) => Math.sin(id * 3 + d * 1.7) + (d === id % DIMS ? 2 : 0));
const tokenize = (word: string) => {
  const ids: number[] = [];
  let rest = `▁${word}`;
  while (rest) {
    const at = VOCAB.findIndex(([p], i) => i >= RESERVED_PIECES && rest.startsWith(p));
    if (at < 0) {
      ids.push(0);
      rest = rest.slice(1);
    } else {
      ids.push(at);
      rest = rest.slice(VOCAB[at][0].length);
    }
  }
  return ids;
};

describe('static table: weights and the weighted mean', () => {
  it('weighs frequent pieces less than rare ones (smooth inverse frequency) and reserved pieces not at all', () => {
    const w = pieceWeights(VOCAB.map(([, s]) => s));
    expect(Array.from(w.slice(0, RESERVED_PIECES))).toEqual([0, 0, 0, 0, 0, 0]);
    expect(w[6]).toBeLessThan(0.01); // ▁the, p = e^-2
    expect(w[7]).toBeGreaterThan(0.8); // ▁cat, p = e^-9
    expect(w[10]).toBeGreaterThan(w[7]);
  });

  it('is the weighted mean of the pieces, L2-normalized; no weighted piece gives a zero vector', () => {
    const vectors = new Float32Array(VOCAB.length * DIMS);
    VOCAB.forEach((_, i) => vectors.set(pieceVector(i), i * DIMS));
    const weights = Float32Array.from(VOCAB, (_, i) => (i === 7 ? 3 : i === 8 ? 1 : 0));
    const table = { dims: DIMS, vectors, weights };
    const v = embedPieces(table, [7, 8, 0, 99]);
    const expected = pieceVector(7).map((x, d) => 3 * x + pieceVector(8)[d]);
    const n = norm(expected);
    expect(norm(v)).toBeCloseTo(1, 5);
    Array.from(v).forEach((x, d) => expect(x).toBeCloseTo(expected[d] / n, 5));
    expect(Array.from(embedPieces(table, [0, 1, 6]))).toEqual([0, 0, 0, 0]);
  });

  it('takes the shared mean and the dominant direction out of every piece', async () => {
    // Every piece = a big shared offset + its own signal on one axis.
    const dims = 3;
    const rows = [
      [5, 5, 1],
      [5, 5, -1],
      [5, 6, 0],
      [5, 4, 0],
    ];
    const vectors = Float32Array.from(rows.flat());
    const out = await removeCommonDirections(vectors, dims, [1, 1, 1, 1], 1);
    // Centred, the biggest spread is along y (±1 vs ±1 on z: equal) or z; what is left is orthogonal to it
    // and the mean is gone.
    for (let d = 0; d < dims; d++) expect(Math.abs(rows.reduce((s, _, i) => s + out[i * dims + d], 0))).toBeLessThan(1e-5);
    expect(Math.abs(out[0] - 0)).toBeLessThan(1e-5); // the x offset shared by all is removed
    const remaining = Array.from(out).reduce((s, x) => s + x * x, 0);
    expect(remaining).toBeCloseTo(2, 3); // one of the two unit-spread directions (total 4) is projected out
  });
});

describe('static table file', () => {
  let dir: string;
  beforeEach(async () => (dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-static-table-'))));
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  const vectors = Float32Array.from({ length: 3 * DIMS }, (_, i) => i / 7);
  const expect3 = { key: 'model-a', pieces: 3, dims: DIMS };

  it('round-trips, and refuses another key, size, a truncated file or a flipped byte', () => {
    const data = encodeTable('model-a', vectors, DIMS);
    const ok = decodeTable(data, expect3);
    expect('vectors' in ok && Array.from(ok.vectors)).toEqual(Array.from(vectors));
    expect(decodeTable(data, { ...expect3, key: 'model-b' })).toEqual({ error: 'made by another model or vocabulary' });
    expect(decodeTable(data, { ...expect3, pieces: 4 })).toEqual({ error: `3×${DIMS} instead of 4×${DIMS}` });
    expect(decodeTable(data.subarray(0, data.length - 5), expect3)).toEqual({ error: 'truncated or padded' });
    const flipped = Buffer.from(data);
    flipped[40] ^= 0xff;
    expect(decodeTable(flipped, expect3)).toEqual({ error: 'checksum mismatch' });
    expect(decodeTable(Buffer.from('hello world, not a table at all, really not'), expect3)).toEqual({ error: 'not a table file' });
  });

  it('is built when missing, written 0600, reused, and rebuilt (not trusted) when corrupt', async () => {
    const file = path.join(dir, 'memory', 'table.bin');
    let builds = 0;
    const events: string[] = [];
    const options = {
      file,
      ...expect3,
      build: async () => (builds++, Float32Array.from(vectors)),
      onEvent: (m: string) => events.push(m),
    };
    expect((await loadOrBuildTable(options)).built).toBe(true);
    if (process.platform !== 'win32') expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect((await loadOrBuildTable(options)).built).toBe(false);
    expect(builds).toBe(1);

    const data = await fs.readFile(file);
    data[data.length - 40] ^= 0x01;
    await fs.writeFile(file, data);
    const rebuilt = await loadOrBuildTable(options);
    expect(rebuilt.built).toBe(true);
    expect(Array.from(rebuilt.vectors)).toEqual(Array.from(vectors));
    expect(events.join('\n')).toContain('checksum mismatch');
    expect((await loadOrBuildTable(options)).built).toBe(false);
    expect(builds).toBe(2);
  });
});

describe('StaticEmbedder (fake vocabulary and piece vectors)', () => {
  let dir: string;
  beforeEach(async () => (dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-static-embedder-'))));
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  const make = (calls: number[][]) =>
    new StaticEmbedder({
      stateDir: () => dir,
      vocabulary: VOCAB,
      tokenize,
      dims: DIMS,
      embedPieces: async (ids) => (calls.push(ids), ids.map(pieceVector)),
    });

  it('builds the table once per state directory, keyed by model, and embeds texts as unit vectors', async () => {
    const calls: number[][] = [];
    const first = make(calls);
    const [cat, cats, car, nothing] = await first.embed(['the cat', 'cats', 'car', '']);
    expect(calls.flat()).toEqual(VOCAB.map((_, i) => i));
    expect(norm(cat)).toBeCloseTo(1, 5);
    expect(norm(car)).toBeCloseTo(1, 5);
    expect(Array.from(nothing)).toEqual([0, 0, 0, 0]);
    expect(first.pieces('the cats')).toEqual([6, 7, 9]);
    // "▁the" weighs almost nothing: "the cat" is close to "cat"; "cats" adds a frequent piece.
    const [alone] = await first.embed(['cat']);
    const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);
    expect(cos(cat, alone)).toBeGreaterThan(0.99);
    expect(cos(cats, alone)).toBeGreaterThan(cos(car, alone));

    const file = first.tableFile() as string;
    expect(path.dirname(file)).toBe(path.join(dir, 'memory'));
    await first.close();
    const second = make(calls);
    await second.embed(['cat']);
    expect(calls.length).toBe(1); // read from the file, not built again

    await fs.writeFile(file, 'garbage');
    const third = make(calls);
    const [again] = await third.embed(['cat']);
    expect(calls.length).toBe(2);
    Array.from(again).forEach((x, d) => expect(x).toBeCloseTo(alone[d], 5));
  });

  it('has a fingerprint of its own, so an index built by the full model is re-embedded', () => {
    expect(make([]).fingerprint).not.toBe(new BundledEmbedder().fingerprint);
    expect(make([]).fingerprint).toMatch(/^bundled-static:/);
  });

  it('fails the embed when the build fails, and tries again on the next call', async () => {
    let fail = true;
    const embedder = new StaticEmbedder({
      vocabulary: VOCAB,
      tokenize,
      dims: DIMS,
      embedPieces: async (ids) => {
        if (fail) throw new Error('worker died');
        return ids.map(pieceVector);
      },
    });
    await expect(embedder.embed(['cat'])).rejects.toThrow('worker died');
    fail = false;
    expect(norm((await embedder.embed(['cat']))[0])).toBeCloseTo(1, 5);
  });
});

describe('StaticEmbedder in its worker (the real tokenizer and vocabulary, fake piece vectors)', () => {
  it('gives the vectors the in-thread arithmetic gives, and answers an empty text with a zero vector', async () => {
    const dims = 8;
    const embedder = new StaticEmbedder({
      dims,
      embedPieces: async (ids) =>
        ids.map((id) => Float32Array.from({ length: dims }, (_, d) => Math.sin(id * 3 + d * 1.7) + Math.cos(id * d))),
    });
    try {
      const texts = ['when will the tooth doctor see me', 'The locker code for shelf 3 is 1021.\n\n# Heading', ''];
      const fromWorker = await embedder.embed(texts);
      const table = await embedder.ready();
      texts.forEach((text, i) => {
        const inline = embedPieces(table, embedder.pieces(text));
        expect(fromWorker[i]).toHaveLength(dims);
        Array.from(inline).forEach((x, d) => expect(fromWorker[i][d]).toBeCloseTo(x, 5));
      });
      expect(norm(fromWorker[0])).toBeCloseTo(1, 5);
      expect(Array.from(fromWorker[2])).toEqual(new Array(dims).fill(0));
    } finally {
      await embedder.close();
    }
  }, 60_000);
});
