/**
 * A2A SendStreamingMessage (JSON-RPC over SSE, a new context per message), two servers in one run:
 *
 *   clawgate  the gateway's POST /a2a/v1 with the echo agent, which streams its reply word by word: bearer auth,
 *             rate limiter (on, limit out of reach), the durable task row, and every event of the task (its
 *             status changes, each artifact chunk) committed to SQLite before it is sent (docs/a2a-streaming.md)
 *   sdk       @a2a-js/sdk 1.3's own express server (DefaultRequestHandler, InMemoryTaskStore, jsonRpcHandler) with
 *             an executor that publishes the task, one artifact chunk per word of the same reply (append after
 *             the first, lastChunk on the last), then COMPLETED — all in memory
 *
 * Each server runs in its own child process (bench/support/server-process.ts); this process only generates load
 * (undici Pool, one stream in flight per connection) and reads every stream to its end. Each server is measured
 * at concurrency 1, then at BENCH_CONCURRENCY, each a window of BENCH_SECONDS after a warm-up. Per window:
 *
 *   - first-event latency: from sending the request to the first SSE event (the task), and to the first artifact
 *     chunk, p50/p99;
 *   - the full stream, p50/p99, and streams/s;
 *   - events/s (every SSE event received in the window, across connections) and words/s (reply words received in
 *     the window). clawgate joins the words that arrive while a chunk's write is in flight into the next chunk (one
 *     durable write per group commit), so it sends fewer, larger chunks than one per word: events/s alone would
 *     favour the server that sends more events; words/s is the like-for-like delivery rate;
 *   - the server's event-loop delay (monitorEventLoopDelay p99/max beyond the 10 ms sampling interval) and its
 *     CPU time per stream, over the window only.
 *
 * Every stream is checked (support/a2a-stream-client.ts): the task first, chunks that concatenate to the expected
 * reply, COMPLETED last; a bad stream is counted and printed, and makes the run exit 1.
 *
 * The message is BENCH_WORDS - 1 short distinct words, so the echo reply `[main] <message>` has BENCH_WORDS
 * words; the echo model repeats at most 200 characters, which caps BENCH_WORDS at 80. Run: `npm run
 * bench:a2a-stream` (about 35 s).
 *
 * Env:
 *   BENCH_CONCURRENCY [16]     connections of the second window, one stream in flight on each
 *   BENCH_WORDS [50]           words of the reply (2–80)
 *   BENCH_SECONDS [5]          measured window per concurrency per server (after a 1.5 s warm-up)
 *   BENCH_STREAM_DELAY_MS [0]  pause between words: clawgate's models.providers.echo.streamDelayMs, the same
 *                              pause in the SDK executor; 0 streams the words as fast as each server takes them
 *   BENCH_ONLY                 a comma list of servers to run (clawgate,sdk)
 *   BENCH_PROFILE              a directory: the server processes write V8 CPU profiles there (Chrome DevTools)
 */
import { randomUUID } from 'node:crypto';
import * as os from 'node:os';
import { performance } from 'node:perf_hooks';
import { ECHO_MAX_CHARS, echoWords } from '../src/modules/runtime';
import { startClawgate, startSdkServer, userText } from './support/a2a-servers';
import { streamMessage } from './support/a2a-stream-client';
import { figure, type Figure } from './support/latency';
import { describeLoopDelay, endWindow, serveOrRun, ServerProcess, startWindow, WindowLoad, withServer } from './support/server-process';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const WORDS = Number(process.env.BENCH_WORDS ?? 50);
const MEASURE_MS = Number(process.env.BENCH_SECONDS ?? 5) * 1000;
const STREAM_DELAY_MS = Number(process.env.BENCH_STREAM_DELAY_MS ?? 0);
const WARMUP_MS = 1_500;
const TOKEN = 'bench-peer-token-0123456789abcdef';
const AGENT = 'main';
/** WORDS - 1 distinct words (0 1 2 … z 10 11 …): with the echo's `[main] ` in front, the reply has WORDS words. */
const TEXT = Array.from({ length: Math.max(0, WORDS - 1) }, (_, i) => i.toString(36)).join(' ');
const REPLY = `[${AGENT}] ${TEXT}`;

type Role = 'clawgate' | 'sdk';
const ROLES: readonly Role[] = ['clawgate', 'sdk'];

// ------------------------------------------------------------------------------------------------ servers

async function serveClawgate(): Promise<string> {
  const models = STREAM_DELAY_MS > 0 ? `{ providers: { echo: { streamDelayMs: ${STREAM_DELAY_MS} } } }` : undefined;
  const gateway = await startClawgate({ agent: AGENT, peers: { bench: TOKEN }, models });
  return `${gateway.url}/a2a/v1`;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The echo reply cut into the words clawgate's echo model streams, one artifact chunk each, all in memory. */
function serveSdk(): Promise<string> {
  return startSdkServer({
    agent: AGENT,
    name: 'sdk streaming echo',
    description: 'echo agent streaming its reply word by word on the @a2a-js/sdk express server',
    streaming: true,
    executor: (sdk, { AgentEvent }) => ({
      execute: async (ctx, bus) => {
        const ids = { taskId: ctx.taskId, contextId: ctx.contextId };
        const status = (state: string) => ({ state, timestamp: new Date().toISOString() });
        bus.publish(AgentEvent.task(sdk.Task.fromJSON({ id: ctx.taskId, contextId: ctx.contextId, status: status('TASK_STATE_WORKING') })));
        const words = echoWords(`[${AGENT}] ${Array.from(userText(ctx)).slice(0, ECHO_MAX_CHARS).join('')}`);
        const artifactId = randomUUID();
        for (let i = 0; i < words.length; i++) {
          if (i > 0 && STREAM_DELAY_MS > 0) await pause(STREAM_DELAY_MS);
          const chunk = { ...ids, artifact: { artifactId, parts: [{ text: words[i] }] }, append: i > 0, lastChunk: i === words.length - 1 };
          bus.publish(AgentEvent.artifactUpdate(sdk.TaskArtifactUpdateEvent.fromJSON(chunk)));
        }
        bus.publish(AgentEvent.statusUpdate(sdk.TaskStatusUpdateEvent.fromJSON({ ...ids, status: status('TASK_STATE_COMPLETED') })));
      },
      cancelTask: async () => undefined,
    }),
  });
}

// ------------------------------------------------------------------------------------------------ load

interface Window {
  concurrency: number;
  seconds: number;
  /** Right streams that ended in the window. */
  streams: number;
  bad: number;
  firstEvent: Figure;
  firstChunk: Figure;
  full: Figure;
  /** SSE events / reply words received in the window, per second. */
  eventsPerSecond: number;
  wordsPerSecond: number;
  /** Mean artifact chunks per right stream. */
  chunksPerStream: number;
  load: WindowLoad;
}

/** `concurrency` connections streaming one message after the other; what happens in the measured window counts. */
async function measure(role: Role, server: ServerProcess, concurrency: number): Promise<Window> {
  const { Pool } = await import('undici');
  const target = new URL(server.url);
  const pool = new Pool(target.origin, { connections: concurrency, pipelining: 1 });
  const firstEvents: number[] = [];
  const firstChunks: number[] = [];
  const fulls: number[] = [];
  let chunks = 0;
  let events = 0;
  let words = 0;
  let bad = 0;
  let measuring = false;
  let stop = false;
  const onEvent = (n: number) => {
    if (!measuring) return;
    events++;
    words += n;
  };

  const workers = Array.from({ length: concurrency }, async (_, worker) => {
    for (let seq = 0; !stop; seq++) {
      const id = `${concurrency}-${worker}-${seq}`;
      const outcome = await streamMessage({
        pool,
        pathname: target.pathname,
        token: TOKEN,
        id,
        text: TEXT,
        expectedReply: REPLY,
        onEvent,
      }).catch((err: Error) => ({
        problem: `the request failed: ${err.message}`,
        firstEventMs: NaN,
        firstArtifactMs: NaN,
        totalMs: NaN,
        chunks: 0,
      }));
      if (!measuring) continue;
      if (outcome.problem) {
        if (bad++ === 0) console.error(`  ${role}: bad stream ${id}: ${outcome.problem}`);
        continue;
      }
      firstEvents.push(outcome.firstEventMs);
      firstChunks.push(outcome.firstArtifactMs);
      fulls.push(outcome.totalMs);
      chunks += outcome.chunks;
    }
  });
  await pause(WARMUP_MS);
  await startWindow(server.child);
  measuring = true;
  const began = performance.now();
  await pause(MEASURE_MS);
  measuring = false;
  const seconds = (performance.now() - began) / 1000;
  stop = true;
  const load = await endWindow(server.child);
  // The streams still open at the end of the window finish uncounted.
  await Promise.all(workers);
  await pool.close();
  return {
    concurrency,
    seconds,
    streams: fulls.length,
    bad,
    firstEvent: figure('first event', firstEvents),
    firstChunk: figure('first artifact chunk', firstChunks),
    full: figure('full stream', fulls),
    eventsPerSecond: events / seconds,
    wordsPerSecond: words / seconds,
    chunksPerStream: chunks / Math.max(1, fulls.length),
    load,
  };
}

// ------------------------------------------------------------------------------------------------ report

const ms = (n: number) => `${n.toFixed(2)} ms`;
const rate = (n: number) => Math.round(n).toLocaleString('en-US');
const x = (n: number) => `${n.toFixed(2)}x`;
const p50p99 = (f: Figure) => `p50 ${ms(f.p50)} p99 ${ms(f.p99)}`;

function printWindow(role: Role, w: Window): void {
  const perStream = w.load.cpuMicros / Math.max(1, w.streams);
  console.log(
    `  ${role.padEnd(8)} c=${String(w.concurrency).padEnd(3)} first event ${p50p99(w.firstEvent)}   ` +
      `first chunk ${p50p99(w.firstChunk)}   full stream ${p50p99(w.full)}`,
  );
  console.log(
    `                 ${rate(w.streams / w.seconds)} streams/s   ${rate(w.eventsPerSecond)} events/s   ${rate(w.wordsPerSecond)} words/s   ` +
      `(${w.chunksPerStream.toFixed(1)} chunks per stream for ${WORDS} words; ${w.streams} streams, ${w.bad} bad)`,
  );
  console.log(`                 ${describeLoopDelay(w.load)}; server CPU ${perStream.toFixed(0)} µs per stream (all threads)`);
}

function printRatios(claw: Window, sdk: Window): void {
  const r = (a: number, b: number) => x(a / b);
  console.log(
    `  clawgate/sdk at c=${claw.concurrency}: first event p50 ${r(claw.firstEvent.p50, sdk.firstEvent.p50)} p99 ${r(claw.firstEvent.p99, sdk.firstEvent.p99)}; ` +
      `first chunk p50 ${r(claw.firstChunk.p50, sdk.firstChunk.p50)} p99 ${r(claw.firstChunk.p99, sdk.firstChunk.p99)}; ` +
      `full stream p50 ${r(claw.full.p50, sdk.full.p50)} p99 ${r(claw.full.p99, sdk.full.p99)}`,
  );
  console.log(
    `                       streams/s ${r(claw.streams / claw.seconds, sdk.streams / sdk.seconds)}; events/s ${r(claw.eventsPerSecond, sdk.eventsPerSecond)}; ` +
      `words/s ${r(claw.wordsPerSecond, sdk.wordsPerSecond)}; event-loop p99 ${ms(claw.load.p99)} vs ${ms(sdk.load.p99)}, ` +
      `max ${ms(claw.load.max)} vs ${ms(sdk.load.max)}`,
  );
}

async function main(): Promise<void> {
  if (!Number.isInteger(WORDS) || WORDS < 2 || Array.from(TEXT).length > ECHO_MAX_CHARS)
    throw new Error(
      `BENCH_WORDS must be an integer from 2 to 80 (the echo model repeats at most ${ECHO_MAX_CHARS} characters); got ${WORDS}`,
    );
  if (!(CONCURRENCY >= 1)) throw new Error(`BENCH_CONCURRENCY must be at least 1 (got ${process.env.BENCH_CONCURRENCY})`);
  if (!(MEASURE_MS > 0)) throw new Error(`BENCH_SECONDS must be a positive number (got ${process.env.BENCH_SECONDS})`);
  // The same range as models.providers.<name>.streamDelayMs, which clawgate's config would refuse beyond it.
  if (!Number.isInteger(STREAM_DELAY_MS) || STREAM_DELAY_MS < 0 || STREAM_DELAY_MS > 10_000)
    throw new Error(`BENCH_STREAM_DELAY_MS must be an integer from 0 to 10000 (got ${process.env.BENCH_STREAM_DELAY_MS})`);
  const only = process.env.BENCH_ONLY?.split(',');
  const roles = ROLES.filter((r) => !only || only.includes(r));
  if (!roles.length) throw new Error(`BENCH_ONLY names none of ${ROLES.join(', ')}`);
  const delay = STREAM_DELAY_MS > 0 ? `${STREAM_DELAY_MS} ms apart` : 'no pause between words';
  console.log(
    `A2A SendStreamingMessage (JSON-RPC SSE, new context per message): a ${WORDS}-word reply, ${delay}; concurrency 1 and ` +
      `${CONCURRENCY}, ${MEASURE_MS / 1000} s each after ${WARMUP_MS / 1000} s warm-up; ${os.cpus().length} CPUs, ` +
      `load average ${os.loadavg()[0].toFixed(2)} at the start`,
  );
  console.log(
    '  clawgate writes every event durably before sending it and joins words that arrive during a chunk write into the next chunk; ' +
      'the sdk keeps events in memory and sends one chunk per word: compare words/s, not events/s',
  );
  const results = new Map<Role, Window[]>();
  for (const role of roles) {
    await withServer(__filename, role, async (server) => {
      const windows: Window[] = [];
      for (const concurrency of [...new Set([1, CONCURRENCY])]) {
        const w = await measure(role, server, concurrency);
        printWindow(role, w);
        windows.push(w);
      }
      results.set(role, windows);
    });
  }
  const claw = results.get('clawgate');
  const sdk = results.get('sdk');
  if (claw && sdk) claw.forEach((w, i) => printRatios(w, sdk[i]));
  console.log(`  load average ${os.loadavg()[0].toFixed(2)} at the end`);
  if ([...results.values()].flat().some((w) => w.bad > 0 || w.streams === 0)) process.exitCode = 1;
}

serveOrRun({ clawgate: serveClawgate, sdk: serveSdk }, main);
