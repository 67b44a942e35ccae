/**
 * The part of `npm run bench:memory` that needs a running gateway: embedding real chunks with the bundled
 * model (or its static table, `bundled-static`) inside the gateway process while A2A `SendMessage` traffic
 * is served, compared with the same traffic while nothing is indexed.
 *
 * The gateway runs in a child process (`bench/support/memory-load.ts serve`, TypeScript loaded by ts-register.js)
 * with one agent granted a directory of real prose (bench/support/real-corpus.ts), the A2A channel on and
 * the echo model. It measures its own event-loop delay (monitorEventLoopDelay, 10 ms resolution) over the
 * windows this process names over IPC, and on `index` opens the agent's memory and waits until every chunk
 * has its vector. This process sends blocking `SendMessage` calls at a fixed rate (BENCH_A2A_RATE [200]/s,
 * up to 8 keep-alive connections) for 10 s idle and then for as long as the indexing takes, and afterwards
 * searches through the admin endpoint (query embedding included): right after indexing ("cold") and again once
 * the background work has settled ("warm": for bundled-static, every chunk has the bundled model's vector too;
 * for the others nothing runs in the background, so it is the same searches again).
 */
import { ChildProcess, fork } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { runBench } from './fill';
import { figure, Figure } from './latency';

const PEER = 'bench';
const TOKEN = 'bench-peer-token-0123456789abcdef';
const TEXT = 'benchmark ping: summarize the state of the deploy';
const CONNECTIONS = 8;
const IDLE_SECONDS = 10;
/** SendMessage calls per second in both windows [BENCH_A2A_RATE]. */
const RATE = Number(process.env.BENCH_A2A_RATE ?? 200);
/** memory.embeddings.provider of the gateway under test (set by measureUnderLoad). */
const PROVIDER = process.env.BENCH_PROVIDER ?? 'bundled';

type ToChild = { type: 'loop-start' } | { type: 'loop-end' } | { type: 'index' } | { type: 'settle' };
type FromChild =
  | { type: 'ready'; url: string; tableSeconds?: number }
  | { type: 'loop'; p50: number; p99: number; max: number }
  | { type: 'indexed'; seconds: number; chunks: number; embedded: number; rssMiB: number; awaitingModel: number }
  | { type: 'settled'; seconds: number; awaitingModel: number };

// ------------------------------------------------------------------------------------------------ child

async function serve(): Promise<void> {
  process.env.CLAWGATE_LOG_LEVEL = 'silent';
  const corpus = process.env.BENCH_CORPUS_DIR as string;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-bench-memory-load-'));
  const configPath = path.join(dir, 'openclaw.json');
  await fs.writeFile(
    configPath,
    `{ agents: { list: [{ id: "main", memorySearch: { qmd: { extraCollections: [{ path: ${JSON.stringify(corpus)}, name: "corpus" }] } } }] },
       memory: { backend: "qmd", qmd: { includeDefaultMemory: false }, embeddings: { provider: "${PROVIDER}", workers: ${Number(process.env.BENCH_WORKERS ?? 1)}, rerank: ${Number(process.env.BENCH_RERANK ?? 10)} } },
       channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { ${PEER}: { token: "${TOKEN}" } } } } }`,
  );
  const { startGateway } = await import('../../src/bootstrap');
  const { MemoryService, StaticEmbedder } = await import('../../src/modules/memory');
  const stateDir = path.join(dir, 'state');
  // bundled-static: its table is built beforehand, once per state directory, and timed on its own; the
  // indexing figure is then the steady state (what every later start and every reindex sees).
  let tableSeconds: number | undefined;
  if (PROVIDER === 'bundled-static') {
    const started = performance.now();
    const table = new StaticEmbedder({ stateDir: () => stateDir });
    await table.ready();
    await table.close();
    tableSeconds = (performance.now() - started) / 1000;
  }
  const gateway = await startGateway({ configPath, stateDir, portOverride: 0, env: { HOME: dir } });
  const send = (m: FromChild) => process.send?.(m);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  process.on('message', (m: ToChild) => {
    if (m.type === 'loop-start') {
      delay.reset();
      delay.enable();
    } else if (m.type === 'loop-end') {
      delay.disable();
      send({ type: 'loop', p50: delay.percentile(50) / 1e6, p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 });
    } else if (m.type === 'index') {
      void (async () => {
        const started = performance.now();
        const memory = await gateway.app.get(MemoryService).forAgent('main');
        await memory.idle();
        const [stats] = memory.stats();
        send({
          type: 'indexed',
          seconds: (performance.now() - started) / 1000,
          chunks: stats.chunks,
          embedded: stats.embedded,
          rssMiB: process.memoryUsage().rss / 2 ** 20,
          awaitingModel: memory.awaitingModel(),
        });
      })();
    } else if (m.type === 'settle') {
      void (async () => {
        const started = performance.now();
        const memory = await gateway.app.get(MemoryService).forAgent('main');
        await memory.upgraded();
        send({ type: 'settled', seconds: (performance.now() - started) / 1000, awaitingModel: memory.awaitingModel() });
      })();
    }
  });
  process.on(
    'disconnect',
    () => void gateway.close().finally(() => fs.rm(dir, { recursive: true, force: true }).finally(() => process.exit(0))),
  );
  send({ type: 'ready', url: gateway.url, tableSeconds });
}

// ------------------------------------------------------------------------------------------------ load

export interface LoadReport {
  idle: { send: Figure; loop: { p50: number; p99: number; max: number } };
  indexing: { send: Figure; loop: { p50: number; p99: number; max: number } };
  indexed: { seconds: number; chunks: number; embedded: number; rssMiB: number; awaitingModel: number };
  /** bundled-static: building its table before the gateway started. */
  tableSeconds?: number;
  /** Right after indexing. */
  search: SearchFigure;
  /** The background work after indexing (bundled-static: the bundled model's vectors), from the end of indexing. */
  settled: { seconds: number; awaitingModel: number };
  /** Once that work is done. */
  warmSearch: SearchFigure;
}

export type SearchFigure = Figure & { p95: number; empty: number };

/** Starts the child on `corpusDir`, measures idle, indexing and search, and stops it. */
export async function measureUnderLoad(
  corpusDir: string,
  queries: readonly string[],
  workers: number,
  provider: 'bundled' | 'bundled-static' = 'bundled',
  rerank = Number(process.env.BENCH_RERANK ?? 10),
): Promise<LoadReport> {
  const child = fork(__filename, ['serve'], {
    execArgv: ['-r', require.resolve('./ts-register.js')],
    env: {
      ...process.env,
      BENCH_CORPUS_DIR: corpusDir,
      BENCH_WORKERS: String(workers),
      BENCH_PROVIDER: provider,
      BENCH_RERANK: String(rerank),
      CLAWGATE_LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const { url, tableSeconds } = await next(child, 'ready');
    const { Pool } = await import('undici');
    const pool = new Pool(url, { connections: CONNECTIONS });
    try {
      const warmupUntil = performance.now() + 1000;
      await sendFor(pool, () => performance.now() > warmupUntil, 0);
      child.send({ type: 'loop-start' } satisfies ToChild);
      const idleUntil = performance.now() + IDLE_SECONDS * 1000;
      const idleSend = await sendFor(pool, () => performance.now() > idleUntil, 1);
      child.send({ type: 'loop-end' } satisfies ToChild);
      const idleLoop = await next(child, 'loop');

      child.send({ type: 'loop-start' } satisfies ToChild);
      child.send({ type: 'index' } satisfies ToChild);
      let indexed: Extract<FromChild, { type: 'indexed' }> | undefined;
      const done = next(child, 'indexed').then((m) => (indexed = m));
      const indexingSend = await sendFor(pool, () => indexed !== undefined, 2);
      await done;
      child.send({ type: 'loop-end' } satisfies ToChild);
      const indexingLoop = await next(child, 'loop');

      const search = await searchAll(pool, queries);
      // Measured from the end of indexing: the cold searches above ran while the background work did.
      const sinceIndexed = performance.now();
      child.send({ type: 'settle' } satisfies ToChild);
      const settledMsg = await next(child, 'settled');
      const settled = { seconds: (performance.now() - sinceIndexed) / 1000 + search.seconds, awaitingModel: settledMsg.awaitingModel };
      const warmSearch = await searchAll(pool, queries);
      return {
        idle: { send: figure('SendMessage, idle', idleSend), loop: idleLoop },
        indexing: { send: figure('SendMessage, while indexing', indexingSend), loop: indexingLoop },
        indexed: indexed as NonNullable<typeof indexed>,
        tableSeconds,
        search,
        settled,
        warmSearch,
      };
    } finally {
      await pool.close();
    }
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.disconnect();
    await exited;
  }
}

/** Every query once through the admin search endpoint (the first 10 are warm-up). */
async function searchAll(pool: import('undici').Pool, queries: readonly string[]): Promise<SearchFigure & { seconds: number }> {
  const began = performance.now();
  const times: number[] = [];
  let empty = 0;
  for (const [i, q] of queries.entries()) {
    const started = performance.now();
    const res = await pool.request({ path: `/admin/agents/main/memory/search?q=${encodeURIComponent(q)}&limit=6`, method: 'GET' });
    const body = JSON.parse(await res.body.text()) as { results?: unknown[] };
    if (res.statusCode !== 200) throw new Error(`search answered HTTP ${res.statusCode}`);
    if (i >= 10) times.push(performance.now() - started);
    if (!body.results?.length) empty++;
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { ...figure('search', times), p95: sorted[Math.floor(0.95 * sorted.length)], empty, seconds: (performance.now() - began) / 1000 };
}

/**
 * Blocking SendMessage at a fixed rate (open loop: a slow answer does not delay the next request) until
 * `stop()`; returns the latencies (ms). A fixed rate keeps the traffic the same in both windows, where a
 * closed loop would send more when the gateway is faster and take the CPU the indexing needs.
 */
async function sendFor(pool: import('undici').Pool, stop: () => boolean, round: number): Promise<number[]> {
  const latencies: number[] = [];
  const inFlight = new Set<Promise<void>>();
  const gapMs = 1000 / RATE;
  const began = performance.now();
  for (let n = 0; !stop(); n++) {
    const due = began + n * gapMs;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const one = sendOne(pool, `r${round}-${n}`).then((ms) => void latencies.push(ms));
    inFlight.add(one);
    void one.finally(() => inFlight.delete(one));
  }
  await Promise.all(inFlight);
  return latencies;
}

async function sendOne(pool: import('undici').Pool, id: string): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'SendMessage',
    params: { message: { messageId: id, role: 'ROLE_USER', parts: [{ text: TEXT }] } },
  });
  const started = performance.now();
  const res = await pool.request({
    path: '/a2a/v1',
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', authorization: `Bearer ${TOKEN}` },
    body,
  });
  const text = await res.body.text();
  if (res.statusCode !== 200 || JSON.parse(text).result?.task?.status?.state !== 'TASK_STATE_COMPLETED') {
    throw new Error(`SendMessage failed: HTTP ${res.statusCode} ${text.slice(0, 200)}`);
  }
  return performance.now() - started;
}

function next<T extends FromChild['type']>(child: ChildProcess, type: T): Promise<Extract<FromChild, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: FromChild) => {
      if (m.type !== type) return;
      child.off('message', onMessage);
      resolve(m as Extract<FromChild, { type: T }>);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`gateway exited (${code}) while waiting for ${type}`)));
  });
}

if (require.main === module && process.argv[2] === 'serve') runBench(serve);
