import { BundledEmbedder } from './bundled-embedder';
import { FullModelReranker } from './full-model-reranker';

const unit = (...xs: number[]) => {
  const n = Math.hypot(...xs);
  return Float32Array.from(xs, (x) => x / n);
};
/** Texts name their vector: "x" points along the first axis, "y" the second, "xy" halfway. */
const AXES: Record<string, Float32Array> = { x: unit(1, 0), y: unit(0, 1), xy: unit(1, 1) };

describe('FullModelReranker', () => {
  it('scores each text by its cosine with the query, in input order, duplicates included', async () => {
    const reranker = new FullModelReranker({ embed: async (texts) => texts.map((t) => AXES[t]) });
    const sims = await reranker.similarities('x', ['y', 'xy', 'x', 'xy']);
    expect(sims[0]).toBeCloseTo(0, 6);
    expect(sims[1]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(sims[2]).toBeCloseTo(1, 6);
    expect(sims[3]).toBeCloseTo(Math.SQRT1_2, 6);
  });

  it('embeds a candidate text once: later searches embed only their query and unseen texts', async () => {
    const seen: string[][] = [];
    const reranker = new FullModelReranker({
      embed: async (texts) => {
        seen.push([...texts]);
        return texts.map((t) => AXES[t]);
      },
    });
    await reranker.similarities('x', ['y', 'xy', 'y']);
    const sims = await reranker.similarities('y', ['xy', 'x']);
    expect(seen).toEqual([
      ['x', 'y', 'xy'],
      ['y', 'x'],
    ]);
    expect(sims[0]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(sims[1]).toBeCloseTo(0, 6);
  });

  it('keeps the most recently used candidates when its cache is full, even those the same search needs again', async () => {
    const seen: string[][] = [];
    const reranker = new FullModelReranker({
      cacheSize: 2,
      embed: async (texts) => {
        seen.push([...texts]);
        return texts.map((t) => AXES[t]);
      },
    });
    await reranker.similarities('x', ['x', 'y']); // cache: x, y
    // "x" is the oldest entry and is needed again while "xy" is new: both are scored, "y" is evicted.
    const sims = await reranker.similarities('y', ['x', 'xy']);
    expect(sims[0]).toBeCloseTo(0, 6);
    expect(sims[1]).toBeCloseTo(Math.SQRT1_2, 6);
    await reranker.similarities('x', ['x', 'xy', 'y']);
    expect(seen).toEqual([
      ['x', 'x', 'y'],
      ['y', 'xy'],
      ['x', 'y'],
    ]);
  });

  it('reads its depth at every call: memory.embeddings.rerank, 10 when not given', () => {
    let depth = 4;
    expect(new FullModelReranker({ depth: () => depth }).depth()).toBe(4);
    depth = 0;
    expect(new FullModelReranker({ depth: () => depth }).depth()).toBe(0);
    expect(new FullModelReranker().depth()).toBe(10);
  });

  it('passes an embedding failure on to the search (which keeps its own ranking)', async () => {
    const reranker = new FullModelReranker({ embed: async () => Promise.reject(new Error('model gone')) });
    await expect(reranker.similarities('x', ['y'])).rejects.toThrow('model gone');
  });

  it('gives the bundled model’s own cosines (the real model in its worker)', async () => {
    const reranker = new FullModelReranker();
    const model = new BundledEmbedder();
    try {
      const query = 'when will the tooth doctor see me';
      const texts = ['Dr. Alvarez cleans my teeth twice a year.', 'The wifi password is behind the router.'];
      const sims = await reranker.similarities(query, texts);
      const [q, ...vs] = await model.embed([query, ...texts]);
      vs.forEach((v, i) =>
        expect(sims[i]).toBeCloseTo(
          v.reduce((s, x, d) => s + x * q[d], 0),
          5,
        ),
      );
      expect(sims[0]).toBeGreaterThan(sims[1]);
    } finally {
      await Promise.all([reranker.close(), model.close()]);
    }
  }, 60_000);
});
