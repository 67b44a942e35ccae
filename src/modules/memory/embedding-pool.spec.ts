import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { EmbeddingPool } from './embedding-pool';

/*
 * A stand-in worker speaking the pool's protocol, with texts that make it misbehave: `crash` kills the
 * thread, `hang` never answers, `fail` answers with an error, `crash-once` kills only the first worker
 * that sees it (a marker file shared through workerData). Anything else gets a 2-dim vector [length, 1].
 */
const FAKE_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
parentPort.on('message', ({ id, texts }) => {
  if (texts.includes('crash')) process.exit(3);
  if (texts.includes('hang')) return;
  if (texts.includes('crash-once') && !fs.existsSync(workerData.marker)) {
    fs.writeFileSync(workerData.marker, 'x');
    throw new Error('worker blew up');
  }
  if (texts.includes('fail')) return parentPort.postMessage({ id, error: 'cannot embed that' });
  const out = new Float32Array(texts.length * 2);
  texts.forEach((t, i) => { out[i * 2] = t.length; out[i * 2 + 1] = 1; });
  parentPort.postMessage({ id, dims: 2, vectors: out }, [out.buffer]);
});
`;

describe('EmbeddingPool', () => {
  let pool: EmbeddingPool;
  const events: string[] = [];
  let marker: string;

  beforeEach(() => {
    events.length = 0;
    marker = path.join(tmpdir(), `pool-spec-${process.pid}-${Date.now()}`);
    pool = new EmbeddingPool({
      source: FAKE_WORKER,
      workerData: { marker },
      size: () => 1,
      jobTimeoutMs: 1000,
      onEvent: (m) => events.push(m),
    });
  });
  afterEach(async () => {
    await pool.close();
    rmSync(marker, { force: true });
  });

  it('answers batches in input order and counts what it embedded', async () => {
    const [a, b] = await Promise.all([pool.run(['x', 'yy']), pool.run(['zzz'], 'query')]);
    expect(a.map((v) => Array.from(v))).toEqual([
      [1, 1],
      [2, 1],
    ]);
    expect(Array.from(b[0])).toEqual([3, 1]);
    expect(pool.stats()).toMatchObject({ workers: 1, busy: 0, queued: 0, embedded: 3, crashes: 0 });
  });

  it('runs queries ahead of queued indexing batches', async () => {
    const order: string[] = [];
    const first = pool.run(['index-1']).then(() => order.push('index-1'));
    const second = pool.run(['index-2']).then(() => order.push('index-2'));
    const query = pool.run(['query'], 'query').then(() => order.push('query'));
    await Promise.all([first, second, query]);
    // index-1 was already running; the query overtook index-2, which was waiting.
    expect(order).toEqual(['index-1', 'query', 'index-2']);
  });

  it('retries a batch whose worker crashed once, on a new worker, and loses nothing', async () => {
    const [vectors, other] = await Promise.all([pool.run(['crash-once', 'ok']), pool.run(['after'])]);
    expect(vectors.map((v) => v[0])).toEqual([10, 2]);
    expect(other[0][0]).toBe(5);
    expect(pool.stats().crashes).toBe(1);
    expect(events).toEqual([expect.stringContaining('worker blew up; its batch is retried on a new worker')]);
  });

  it('refuses a batch that kills two workers with a clear error, and keeps serving the next ones', async () => {
    const poisoned = pool.run(['crash']);
    const next = pool.run(['fine']);
    await expect(poisoned).rejects.toThrow('the embedding worker died 2 times on the same batch (last: exited with code 3)');
    expect((await next)[0][0]).toBe(4);
    expect(pool.stats()).toMatchObject({ crashes: 2, workers: 1 });
  });

  it('treats a worker that stops answering as crashed (no caller waits forever)', async () => {
    const started = Date.now();
    await expect(pool.run(['hang'])).rejects.toThrow('no answer within 1000 ms');
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await pool.run(['alive']))[0][0]).toBe(5);
  });

  it('passes on an error the worker reports without replacing it', async () => {
    await expect(pool.run(['fail'])).rejects.toThrow('bundled embedding failed: cannot embed that');
    expect(pool.stats()).toMatchObject({ crashes: 0, workers: 1 });
  });

  it('drops a queued batch whose caller aborted, and answers everything with an error once closed', async () => {
    const controller = new AbortController();
    const running = pool.run(['first']);
    const queued = pool.run(['second'], 'index', controller.signal);
    controller.abort();
    await expect(queued).rejects.toThrow('aborted');
    await running;
    const waiting = [pool.run(['a']), pool.run(['b'])].map((p) =>
      p.then(
        () => 'answered',
        (err: Error) => err.message,
      ),
    );
    await pool.close();
    expect(await Promise.all(waiting)).toEqual(['the embedding pool is closed', 'the embedding pool is closed']);
    await expect(pool.run(['c'])).rejects.toThrow('the embedding pool is closed');
  });

  it('grows to the configured size and shrinks when it is lowered', async () => {
    let size = 2;
    const wide = new EmbeddingPool({ source: FAKE_WORKER, workerData: { marker }, size: () => size });
    try {
      await Promise.all([wide.run(['a']), wide.run(['b']), wide.run(['c'])]);
      expect(wide.stats().workers).toBe(2);
      size = 1;
      await wide.run(['d']);
      expect(wide.stats().workers).toBe(1);
    } finally {
      await wide.close();
    }
  });
});
