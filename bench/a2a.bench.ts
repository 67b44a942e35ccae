/**
 * A2A SendMessage throughput and latency (blocking, echo agent), three servers in one run:
 *
 *   clawgate  the gateway's POST /a2a/v1: bearer auth, rate limiter (on, limit out of reach), JSON-RPC,
 *             routing, the durable task row, an agent run (echo model) with its session and both transcript
 *             lines committed to SQLite before the answer
 *   sdk       the same echo agent served by @a2a-js/sdk's own express server (DefaultRequestHandler,
 *             InMemoryTaskStore, jsonRpcHandler) — the reference implementation, all in memory
 *   bare      a node:http JSON-RPC echo that answers the same task shape with no work at all (ceiling)
 *   layer     clawgate again, with the agent run replaced by an instant echo: what the A2A channel itself
 *             (HTTP, auth, JSON-RPC, routing, durable task rows) costs, without the runtime's transcript I/O
 *
 * Each server runs in its own child process; this process only generates load (undici Pool, keep-alive),
 * so the load generator never steals the server's event loop. Every response is checked (HTTP 200,
 * COMPLETED, the echo text), so a fast wrong answer cannot win. Run: `npm run bench:a2a` (about 55 s).
 *
 * Printed per server: req/s, p50/p99, the cost curve (req/s per tenth of the measured run and its last/first
 * ratio: below 1 means each message costs more than the one before), and the server's event-loop delay
 * (perf_hooks.monitorEventLoopDelay, 10 ms resolution, p99 and max beyond the 10 ms sampling interval) during
 * the measured window only — the child starts and stops the histogram when this process tells it to over the
 * spawn's IPC channel. Then the clawgate/sdk ratios and the goals, each marked pass or FAIL.
 *
 * Env:
 *   BENCH_CONCURRENCY [32]  keep-alive connections, one message in flight on each
 *   BENCH_SECONDS [7]       length of the measured window per server (after a 2 s warm-up)
 *   BENCH_MESSAGES          instead of BENCH_SECONDS: measure until this many messages have completed (e.g.
 *                           100000 for a run that opens 100,000 sessions); the curve then slices by message
 *                           order: the rate of the first tenth of the messages vs the last tenth
 *   BENCH_CONTEXTS          "fresh" (default: no contextId, so every message opens a new session — what a
 *                           client sending one-off tasks does), "per-worker" (each connection reuses one
 *                           contextId: one conversation per peer connection) or "single" (every message of
 *                           every connection uses ONE contextId: one session with a growing transcript; the
 *                           gateway runs one session's messages one after the other, so expect low throughput)
 *   BENCH_HISTORY [0]       before measuring, fill the clawgate servers (clawgate, layer) with this many
 *                           settled messages through the real endpoint (blocking SendMessage): with fresh or
 *                           per-worker contexts, n new sessions (two transcript lines and a task row each),
 *                           spread over ceil(n/500) extra peers because the gateway keeps at most 500 finished
 *                           tasks per peer; with BENCH_CONTEXTS=single, n turns of the one session. Not measured;
 *                           progress and the fill rate are printed
 *   BENCH_PREFILL_CONCURRENCY [64]  connections used by the fill
 *   BENCH_ONLY              a comma list of servers to run (clawgate,sdk,bare,layer)
 *   BENCH_PROFILE           a directory: the server processes write V8 CPU profiles there (Chrome DevTools)
 *   BENCH_TELEMETRY         "on": the clawgate servers (clawgate, layer) trace with gateway.telemetry.enabled — each
 *                           sampled message a trace of its server, run and model spans — exported over OTLP/HTTP to a
 *                           receiver in this process that drops them unread (it counts requests and bytes)
 *   BENCH_SAMPLE_RATIO [1]  gateway.telemetry.sampleRatio with BENCH_TELEMETRY=on (0: tracing on, nothing recorded)
 */
import { randomUUID } from 'node:crypto';
import * as os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { RunRecord } from '../src/modules/runtime';
import { startBareEcho, startClawgate, startSdkServer, userText } from './support/a2a-servers';
import { OtlpReceiver } from '../test/support/otlp-receiver';
import { costCurve } from './support/rate-curve';
import { fill } from './support/fill';
import {
  describeGcPauses,
  describeLoopDelay,
  endWindow,
  GcPauses,
  serveOrRun,
  ServerProcess,
  startWindow,
  withServer,
} from './support/server-process';

type Contexts = 'fresh' | 'per-worker' | 'single';

/** Tracing on in the clawgate servers, every trace sampled and exported to a local sink (docs/performance.md). */
const TELEMETRY = process.env.BENCH_TELEMETRY === 'on';
const SAMPLE_RATIO = Number(process.env.BENCH_SAMPLE_RATIO ?? 1);

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const MEASURE_MS = Number(process.env.BENCH_SECONDS ?? 7) * 1000;
/** Measure a number of messages instead of a time window. */
const MESSAGES = process.env.BENCH_MESSAGES ? Number(process.env.BENCH_MESSAGES) : undefined;
const WARMUP_MS = 2_000;
const CONTEXTS = (process.env.BENCH_CONTEXTS ?? 'fresh') as Contexts;
const HISTORY = Number(process.env.BENCH_HISTORY ?? 0);
const PREFILL_CONCURRENCY = Number(process.env.BENCH_PREFILL_CONCURRENCY ?? 64);
/** The measured window is cut into this many equal slices; their rates show whether cost grows with history. */
const CURVE_SLICES = 10;
const TOKEN = 'bench-peer-token-0123456789abcdef';
const AGENT = 'main';
const TEXT = 'benchmark ping: summarize the state of the deploy';
const REPLY = `[${AGENT}] ${TEXT}`;
/** The one contextId of BENCH_CONTEXTS=single. */
const SINGLE_CONTEXT = 'bench-long-session';
/** The gateway keeps this many finished tasks per peer (channels.a2a.keptTasksPerPeer, default): the fill spreads over peers. */
const TASKS_KEPT_PER_PEER = 500;

type Role = 'clawgate' | 'sdk' | 'bare' | 'layer';
/** The servers whose state dir the fill goes to. */
const FILLED: readonly Role[] = ['clawgate', 'layer'];

/** The extra peers the fill uses (none in single-context mode: one session is one peer's). */
function prefillPeers(): Array<{ name: string; token: string }> {
  if (HISTORY <= 0 || CONTEXTS === 'single') return [];
  return Array.from({ length: Math.ceil(HISTORY / TASKS_KEPT_PER_PEER) }, (_, i) => ({
    name: `prefill-${i}`,
    token: `bench-prefill-${i}-token-0123456789abcdef`,
  }));
}

// ------------------------------------------------------------------------------------------------ servers

async function serveClawgate(stubRuns = false): Promise<string> {
  const peers = Object.fromEntries([['bench', TOKEN], ...prefillPeers().map((p) => [p.name, p.token])]);
  const telemetry = TELEMETRY ? `{ telemetry: { enabled: true, sampleRatio: ${SAMPLE_RATIO} } }` : undefined;
  const gateway = await startClawgate({ agent: AGENT, peers, gateway: telemetry });
  if (stubRuns) {
    // Attribution only: the run settles on the next turn with the echo reply, touching no transcript.
    const { AgentRunner } = await import('../src/modules/runtime');
    const runner = gateway.app.get(AgentRunner);
    runner.startRun = (input) => {
      const runId = randomUUID();
      const at = new Date().toISOString();
      const record: RunRecord = {
        runId,
        sessionKey: input.sessionKey,
        agentId: AGENT,
        status: 'completed',
        queuedAt: at,
        endedAt: at,
        toolRounds: 0,
      };
      const reply = `[${AGENT}] ${input.message.slice(0, 200)}`;
      const done = new Promise<RunRecord>((resolve) => setImmediate(() => resolve({ ...record, reply })));
      return { runId, done };
    };
  }
  return `${gateway.url}/a2a/v1`;
}

/** The same behaviour as clawgate's echo provider: `[<agentId>] <first 200 chars>`, one completed task. */
function serveSdk(): Promise<string> {
  return startSdkServer({
    agent: AGENT,
    name: 'sdk echo',
    description: 'echo agent on the @a2a-js/sdk express server',
    streaming: false,
    executor: (sdk, { AgentEvent }) => ({
      execute: async (ctx, bus) => {
        bus.publish(
          AgentEvent.task(
            sdk.Task.fromJSON({
              id: ctx.taskId,
              contextId: ctx.contextId,
              status: { state: 'TASK_STATE_COMPLETED', timestamp: new Date().toISOString() },
              artifacts: [{ artifactId: randomUUID(), parts: [{ text: `[${AGENT}] ${userText(ctx).slice(0, 200)}` }] }],
            }),
          ),
        );
      },
      cancelTask: async () => undefined,
    }),
  });
}

// ------------------------------------------------------------------------------------------------ load

interface LoopDelay {
  p99: number;
  max: number;
  /** Server CPU time (all threads) per request completed in the window. */
  cpuPerRequestMicros: number;
  gc: GcPauses;
  windowMs: number;
}

interface Result {
  role: Role;
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** Completed requests per second in each tenth of the measured window (or of the measured messages), in order. */
  curve: number[];
  loopDelay?: LoopDelay;
}

type Pool = import('undici').Pool;

interface Sent {
  ok: boolean;
  status: number;
  text: string;
  elapsed: number;
}

async function sendMessage(pool: Pool, pathname: string, token: string, id: string, contextId: string | undefined): Promise<Sent> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'SendMessage',
    params: { message: { messageId: `m-${id}`, role: 'ROLE_USER', parts: [{ text: TEXT }], ...(contextId ? { contextId } : {}) } },
  });
  const started = performance.now();
  const res = await pool.request({
    path: pathname,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', authorization: `Bearer ${token}` },
    body,
  });
  const text = await res.body.text();
  const elapsed = performance.now() - started;
  let ok = res.statusCode === 200;
  if (ok) {
    const task = JSON.parse(text).result?.task;
    ok =
      task?.status?.state === 'TASK_STATE_COMPLETED' &&
      task.artifacts?.[0]?.parts?.[0]?.text === REPLY &&
      (contextId === undefined || task.contextId === contextId);
  }
  return { ok, status: res.statusCode, text, elapsed };
}

/**
 * The history before the measured window: HISTORY blocking SendMessage calls through the real endpoint, each
 * one settled (task row, both transcript lines) before it answers. Fresh contexts over the prefill peers, or
 * HISTORY turns of the single session. Returns the number of bad answers.
 */
async function prefill(role: Role, url: string): Promise<number> {
  const { Pool } = await import('undici');
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections: PREFILL_CONCURRENCY, pipelining: 1 });
  const peers = prefillPeers();
  const single = CONTEXTS === 'single';
  // The layer's stubbed runs write no session: its fill is task rows only.
  const unit = role === 'layer' ? 'tasks' : 'sessions';
  const what = single ? `${HISTORY} turns of the one session "${SINGLE_CONTEXT}"` : `${HISTORY} ${unit} over ${peers.length} peer(s)`;
  console.log(`  ${role.padEnd(8)} prefill: ${what}, blocking SendMessage, ${PREFILL_CONCURRENCY} connections (not measured)`);
  let errors = 0;
  const seconds = await fill(
    HISTORY,
    PREFILL_CONCURRENCY,
    async (i) => {
      const token = single ? TOKEN : peers[Math.floor(i / TASKS_KEPT_PER_PEER)].token;
      const sent = await sendMessage(pool, target.pathname, token, `prefill-${i}`, single ? SINGLE_CONTEXT : undefined);
      if (!sent.ok && errors++ === 0)
        console.error(`  ${role}: prefill: unexpected answer (HTTP ${sent.status}): ${sent.text.slice(0, 300)}`);
    },
    (done, elapsed) =>
      console.log(
        `           prefill ${String(done).padStart(String(HISTORY).length)}/${HISTORY}   ${(done / elapsed).toFixed(0)} msg/s ` +
          `so far, ${elapsed.toFixed(1)} s`,
      ),
  );
  await pool.close();
  console.log(
    `           prefill done: ${HISTORY} in ${seconds.toFixed(1)} s, ${(HISTORY / seconds).toFixed(0)} msg/s, ${errors} bad answers`,
  );
  return errors;
}

function contextOf(worker: number): string | undefined {
  if (CONTEXTS === 'single') return SINGLE_CONTEXT;
  if (CONTEXTS === 'per-worker') return `bench-ctx-${worker}`;
  return undefined;
}

async function load(role: Role, server: ServerProcess): Promise<Result> {
  const { Pool } = await import('undici');
  const target = new URL(server.url);
  const pool = new Pool(target.origin, { connections: CONCURRENCY, pipelining: 1 });
  const latencies: number[] = [];
  const completedAt: number[] = [];
  let errors = 0;
  let measuring = false;
  let stop = false;
  let ended = 0;
  /** Message mode: resolves at the MESSAGES-th completion in the window. */
  let reachedCount: () => void = () => undefined;
  const counted = new Promise<void>((resolve) => (reachedCount = resolve));

  // What completes inside the window counts (in message mode, the first MESSAGES completions).
  const one = async (worker: number, seq: number): Promise<void> => {
    const sent = await sendMessage(pool, target.pathname, TOKEN, `${worker}-${seq}`, contextOf(worker));
    if (!measuring) return;
    if (!sent.ok && errors++ === 0) console.error(`  ${role}: unexpected answer (HTTP ${sent.status}): ${sent.text.slice(0, 300)}`);
    latencies.push(sent.elapsed);
    completedAt.push(performance.now());
    if (MESSAGES !== undefined && latencies.length >= MESSAGES) {
      measuring = false;
      stop = true;
      ended = performance.now();
      reachedCount();
    }
  };

  const workers = Array.from({ length: CONCURRENCY }, async (_, worker) => {
    for (let seq = 0; !stop; seq++) await one(worker, seq);
  });
  await new Promise((r) => setTimeout(r, WARMUP_MS));
  await startWindow(server.child);
  measuring = true;
  const began = performance.now();
  if (MESSAGES === undefined) {
    await new Promise((r) => setTimeout(r, MEASURE_MS));
    measuring = false;
    ended = performance.now();
    stop = true;
  } else await counted;
  const loopDelay = await endWindow(server.child);
  // The messages still in flight at the end of the window finish uncounted.
  await Promise.all(workers);
  await pool.close();
  const seconds = (ended - began) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return {
    role,
    requests: latencies.length,
    perSecond: latencies.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    errors,
    curve: costCurve(completedAt, began, ended, CURVE_SLICES, MESSAGES !== undefined),
    loopDelay: {
      p99: loopDelay.p99,
      max: loopDelay.max,
      cpuPerRequestMicros: loopDelay.cpuMicros / Math.max(1, latencies.length),
      gc: loopDelay.gc,
      windowMs: ended - began,
    },
  };
}

// ------------------------------------------------------------------------------------------------ report

const lastOverFirst = (curve: number[]) => (curve[0] > 0 ? curve[curve.length - 1] / curve[0] : NaN);
const x = (n: number) => `${n.toFixed(2)}x`;
const mark = (pass: boolean | undefined) => (pass === undefined ? '[ -- ]' : pass ? '[pass]' : '[FAIL]');

function printGoals(claw: Result | undefined, sdk: Result | undefined): void {
  console.log('  goals:');
  const fresh = CONTEXTS === 'fresh';
  const perWorker = CONTEXTS === 'per-worker';
  const both = claw && sdk;
  const throughput = both ? claw.perSecond / sdk.perSecond : NaN;
  const p99 = both ? claw.p99 / sdk.p99 : NaN;
  const curve = claw ? lastOverFirst(claw.curve) : NaN;
  const line = (pass: boolean | undefined, goal: string, figure: string) => console.log(`    ${mark(pass)} ${goal.padEnd(44)} ${figure}`);
  line(
    fresh && both ? throughput >= 2 && claw.p99 <= sdk.p99 : undefined,
    'fresh: ≥2× sdk req/s and p99 ≤ sdk',
    !both
      ? '(needs clawgate and sdk)'
      : fresh
        ? `clawgate/sdk ${x(throughput)} req/s, p99 ${x(p99)}`
        : '(not this run: BENCH_CONTEXTS=fresh)',
  );
  line(claw ? curve >= 0.9 : undefined, 'curve last/first ≥ 0.9', claw ? `clawgate ${x(curve)}` : '(needs clawgate)');
  line(
    perWorker && both ? throughput >= 2.5 : undefined,
    'per-worker ≥ 2.5× sdk',
    !both ? '(needs clawgate and sdk)' : perWorker ? `clawgate/sdk ${x(throughput)} req/s` : '(not this run: BENCH_CONTEXTS=per-worker)',
  );
}

async function main(): Promise<void> {
  if (!['fresh', 'per-worker', 'single'].includes(CONTEXTS))
    throw new Error(`BENCH_CONTEXTS must be fresh, per-worker or single (got ${CONTEXTS})`);
  if (MESSAGES !== undefined && !(MESSAGES >= CURVE_SLICES)) throw new Error(`BENCH_MESSAGES must be a number ≥ ${CURVE_SLICES}`);
  const contexts = {
    fresh: 'a new one per message',
    'per-worker': 'one per connection',
    single: `one for every message ("${SINGLE_CONTEXT}": one session, run one message at a time)`,
  }[CONTEXTS];
  const window = MESSAGES === undefined ? `${MEASURE_MS / 1000} s per server` : `${MESSAGES} messages per server`;
  const history = HISTORY > 0 ? `, history: ${HISTORY} ${CONTEXTS === 'single' ? 'turns' : 'sessions'} before measuring` : '';
  console.log(
    `A2A SendMessage (blocking, echo agent): ${CONCURRENCY} keep-alive connections, ${window} after ` +
      `${WARMUP_MS / 1000} s warm-up, contexts: ${contexts}${history}; ${os.cpus().length} CPUs`,
  );
  // The servers inherit this process's environment: the exporter reads its endpoint from it.
  const sink = TELEMETRY ? await new OtlpReceiver({ drop: true }).start() : undefined;
  if (sink) {
    process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = sink.tracesUrl;
    console.log(`  telemetry on in the clawgate servers: sampleRatio ${SAMPLE_RATIO}, exported over OTLP/HTTP to a local sink`);
  }
  const results: Result[] = [];
  const only = process.env.BENCH_ONLY?.split(',');
  for (const role of (['clawgate', 'sdk', 'bare', 'layer'] as const).filter((r) => !only || only.includes(r))) {
    await withServer(__filename, role, async (server) => {
      if (HISTORY > 0 && FILLED.includes(role) && (await prefill(role, server.url)) > 0) process.exitCode = 1;
      const result = await load(role, server);
      results.push(result);
      console.log(
        `  ${role.padEnd(8)} ${result.perSecond.toFixed(0).padStart(6)} req/s   p50 ${result.p50.toFixed(2).padStart(7)} ms   ` +
          `p99 ${result.p99.toFixed(2).padStart(7)} ms   (${result.requests} requests, ${result.errors} bad answers)`,
      );
      const tenth = MESSAGES === undefined ? 'tenth of the run' : 'tenth of the messages';
      console.log(
        `           req/s per ${tenth}: ${result.curve.map((r) => r.toFixed(0)).join(' ')}   ` +
          `(last/first ${lastOverFirst(result.curve).toFixed(2)}x)`,
      );
      if (result.loopDelay) {
        console.log(
          `           ${describeLoopDelay(result.loopDelay)}; server CPU ${result.loopDelay.cpuPerRequestMicros.toFixed(0)} µs per request (all threads)`,
        );
        console.log(`           ${describeGcPauses(result.loopDelay.gc, result.loopDelay.windowMs)}`);
      }
    });
  }
  const by = new Map(results.map((r) => [r.role, r]));
  const claw = by.get('clawgate');
  const sdk = by.get('sdk');
  const bare = by.get('bare');
  const layer = by.get('layer');
  const ratios: string[] = [];
  if (claw && sdk) ratios.push(`clawgate/sdk throughput ${x(claw.perSecond / sdk.perSecond)}, p99 ${x(claw.p99 / sdk.p99)}`);
  if (claw && bare) ratios.push(`clawgate/bare ${x(claw.perSecond / bare.perSecond)}`);
  if (sdk && bare) ratios.push(`sdk/bare ${x(sdk.perSecond / bare.perSecond)}`);
  if (layer && sdk) ratios.push(`A2A layer alone/sdk ${x(layer.perSecond / sdk.perSecond)}`);
  if (ratios.length) console.log(`  ratios: ${ratios.join('; ')}`);
  if (sink) {
    const kib = (sink.bytes / 1024).toFixed(0);
    console.log(`  telemetry: the sink took ${sink.exports} OTLP exports (${kib} KiB); refused requests: ${sink.refused.length}`);
    await sink.close();
  }
  printGoals(claw, sdk);
  if (results.some((r) => r.errors > 0)) process.exitCode = 1;
}

serveOrRun({ clawgate: () => serveClawgate(), layer: () => serveClawgate(true), sdk: serveSdk, bare: () => startBareEcho(AGENT) }, main);
