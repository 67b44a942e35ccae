/**
 * A2A SendMessage throughput and latency (blocking, echo agent), three servers in one run:
 *
 *   clawgate  the gateway's POST /a2a/v1: bearer auth, rate limiter, JSON-RPC, routing, SQLite task store,
 *             an agent run (echo model) with its session transcript on disk
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
 * Env: BENCH_CONCURRENCY [32], BENCH_SECONDS [7], BENCH_CONTEXTS = "fresh" (default: a new context per
 * message, what a client sending one-off tasks does, so every message opens a session) or "per-worker" (each
 * connection reuses one contextId, one conversation per peer connection),
 * BENCH_ONLY = a comma list of servers to run, BENCH_PROFILE = a directory: the server processes write
 * V8 CPU profiles there (open them in Chrome DevTools).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { RunRecord } from '../src/modules/runtime/run-registry';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const MEASURE_MS = Number(process.env.BENCH_SECONDS ?? 7) * 1000;
const WARMUP_MS = 2_000;
const FRESH_CONTEXTS = process.env.BENCH_CONTEXTS !== 'per-worker';
/** The measured window is cut into this many equal slices; their rates show whether cost grows with history. */
const CURVE_SLICES = 10;
const TOKEN = 'bench-peer-token-0123456789abcdef';
const AGENT = 'main';
const TEXT = 'benchmark ping: summarize the state of the deploy';
const REPLY = `[${AGENT}] ${TEXT}`;

type Role = 'clawgate' | 'sdk' | 'bare' | 'layer';

// ------------------------------------------------------------------------------------------------ servers

async function serveClawgate(stubRuns = false): Promise<string> {
  process.env.CLAWGATE_LOG_LEVEL = 'silent';
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-bench-a2a-'));
  const configPath = path.join(dir, 'openclaw.json');
  await fs.writeFile(
    configPath,
    `{ agents: { list: [{ id: "${AGENT}" }] },
       channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { bench: { token: "${TOKEN}" } } } } }`,
  );
  const { startGateway } = await import('../src/bootstrap');
  const gateway = await startGateway({ configPath, stateDir: path.join(dir, 'state'), portOverride: 0, env: { HOME: dir } });
  if (stubRuns) {
    // Attribution only: the run settles on the next turn with the echo reply, touching no transcript.
    const { AgentRunner } = await import('../src/modules/runtime/agent-runner.service');
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
  process.on(
    'SIGTERM',
    () => void gateway.close().finally(() => fs.rm(dir, { recursive: true, force: true }).finally(() => process.exit(0))),
  );
  return `${gateway.url}/a2a/v1`;
}

async function serveSdk(): Promise<string> {
  const express = (await import('express')).default;
  const { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } = await import('@a2a-js/sdk/server');
  const { agentCardHandler, jsonRpcHandler, UserBuilder } = await import('@a2a-js/sdk/server/express');
  const sdk = await import('@a2a-js/sdk');
  type Executor = ConstructorParameters<typeof DefaultRequestHandler>[2];
  const app = express();
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/a2a/v1`;
  const card = sdk.AgentCard.fromJSON({
    name: 'sdk echo',
    description: 'echo agent on the @a2a-js/sdk express server',
    version: '1.0.0',
    supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: AGENT, name: AGENT, description: `Agent ${AGENT}.`, tags: ['bench'] }],
  });
  // The same behaviour as clawgate's echo provider: `[<agentId>] <first 200 chars>`.
  const executor: Executor = {
    execute: async (ctx, bus) => {
      const text = ctx.userMessage.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('\n');
      bus.publish(
        AgentEvent.task(
          sdk.Task.fromJSON({
            id: ctx.taskId,
            contextId: ctx.contextId,
            status: { state: 'TASK_STATE_COMPLETED', timestamp: new Date().toISOString() },
            artifacts: [{ artifactId: randomUUID(), parts: [{ text: `[${AGENT}] ${text.slice(0, 200)}` }] }],
          }),
        ),
      );
    },
    cancelTask: async () => undefined,
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
  app.use('/a2a/v1', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  return url;
}

async function serveBare(): Promise<string> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const message = body.params.message;
      const text = message.parts.map((p: { text?: string }) => p.text ?? '').join('\n');
      const out = JSON.stringify({
        jsonrpc: '2.0',
        id: body.id,
        result: {
          task: {
            id: randomUUID(),
            contextId: message.contextId ?? `ctx-${randomUUID()}`,
            status: { state: 'TASK_STATE_COMPLETED', timestamp: new Date().toISOString() },
            artifacts: [{ artifactId: randomUUID(), parts: [{ text: `[${AGENT}] ${text.slice(0, 200)}` }] }],
            history: [],
          },
        },
      });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(out) });
      res.end(out);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/a2a/v1`;
}

// ------------------------------------------------------------------------------------------------ load

interface Result {
  role: Role;
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** Completed requests per second in each tenth of the measured window, in order. */
  curve: number[];
}

function spawnServer(role: Role): Promise<{ child: ChildProcess; url: string }> {
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE)}`] : [];
  const child = spawn(process.execPath, [...profile, '-r', 'ts-node/register/transpile-only', __filename, `serve-${role}`], {
    cwd: path.resolve(__dirname, '..'),
    env: { ...process.env, CLAWGATE_LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`${role} server exited (${code}) before it was ready`)));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /READY (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
  });
}

async function load(role: Role, url: string): Promise<Result> {
  const { Pool } = await import('undici');
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections: CONCURRENCY, pipelining: 1 });
  const headers = { 'content-type': 'application/json', 'a2a-version': '1.0', authorization: `Bearer ${TOKEN}` };
  const latencies: number[] = [];
  const completedAt: number[] = [];
  let errors = 0;
  let measuring = false;
  let stop = false;

  const one = async (worker: number, seq: number): Promise<void> => {
    const contextId = FRESH_CONTEXTS ? undefined : `bench-ctx-${worker}`;
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: seq,
      method: 'SendMessage',
      params: {
        message: { messageId: `m-${worker}-${seq}`, role: 'ROLE_USER', parts: [{ text: TEXT }], ...(contextId ? { contextId } : {}) },
      },
    });
    const started = performance.now();
    const res = await pool.request({ path: target.pathname, method: 'POST', headers, body });
    const text = await res.body.text();
    const elapsed = performance.now() - started;
    let ok = res.statusCode === 200;
    if (ok) {
      const task = JSON.parse(text).result?.task;
      ok = task?.status?.state === 'TASK_STATE_COMPLETED' && task.artifacts?.[0]?.parts?.[0]?.text === REPLY;
    }
    if (!measuring) return;
    if (!ok) {
      errors++;
      if (errors === 1) console.error(`  ${role}: unexpected answer (HTTP ${res.statusCode}): ${text.slice(0, 300)}`);
    }
    latencies.push(elapsed);
    completedAt.push(performance.now());
  };

  const workers = Array.from({ length: CONCURRENCY }, async (_, worker) => {
    for (let seq = 0; !stop; seq++) await one(worker, seq);
  });
  await new Promise((r) => setTimeout(r, WARMUP_MS));
  measuring = true;
  const began = performance.now();
  await new Promise((r) => setTimeout(r, MEASURE_MS));
  measuring = false;
  const ended = performance.now();
  const seconds = (ended - began) / 1000;
  stop = true;
  await Promise.all(workers);
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  const sliceMs = (ended - began) / CURVE_SLICES;
  const curve = Array.from({ length: CURVE_SLICES }, () => 0);
  for (const t of completedAt) curve[Math.min(CURVE_SLICES - 1, Math.floor((t - began) / sliceMs))]++;
  const perSecondCurve = curve.map((n) => n / (sliceMs / 1000));
  return {
    role,
    requests: latencies.length,
    perSecond: latencies.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    errors,
    curve: perSecondCurve,
  };
}

async function main(): Promise<void> {
  console.log(
    `A2A SendMessage (blocking, echo agent): ${CONCURRENCY} keep-alive connections, ${MEASURE_MS / 1000} s per server after ` +
      `${WARMUP_MS / 1000} s warm-up, contexts: ${FRESH_CONTEXTS ? 'a new one per message' : 'one per connection'}; ${os.cpus().length} CPUs`,
  );
  const results: Result[] = [];
  const only = process.env.BENCH_ONLY?.split(',');
  for (const role of (['clawgate', 'sdk', 'bare', 'layer'] as const).filter((r) => !only || only.includes(r))) {
    const { child, url } = await spawnServer(role);
    try {
      const result = await load(role, url);
      results.push(result);
      console.log(
        `  ${role.padEnd(8)} ${result.perSecond.toFixed(0).padStart(6)} req/s   p50 ${result.p50.toFixed(2).padStart(7)} ms   ` +
          `p99 ${result.p99.toFixed(2).padStart(7)} ms   (${result.requests} requests, ${result.errors} bad answers)`,
      );
      const [first, last] = [result.curve[0], result.curve[result.curve.length - 1]];
      console.log(
        `           req/s per tenth of the run: ${result.curve.map((r) => r.toFixed(0)).join(' ')}   ` +
          `(last/first ${(first > 0 ? last / first : NaN).toFixed(2)}x)`,
      );
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }
  const by = new Map(results.map((r) => [r.role, r]));
  const claw = by.get('clawgate');
  const sdk = by.get('sdk');
  const bare = by.get('bare');
  const layer = by.get('layer');
  if (claw && sdk && bare) {
    console.log(
      `  ratios: clawgate/sdk throughput ${(claw.perSecond / sdk.perSecond).toFixed(2)}x, p99 ${(claw.p99 / sdk.p99).toFixed(2)}x; ` +
        `clawgate/bare ${(claw.perSecond / bare.perSecond).toFixed(2)}x; sdk/bare ${(sdk.perSecond / bare.perSecond).toFixed(2)}x` +
        (layer ? `; A2A layer alone/sdk ${(layer.perSecond / sdk.perSecond).toFixed(2)}x` : ''),
    );
  }
  if (results.some((r) => r.errors > 0)) process.exitCode = 1;
}

const mode = process.argv[2];
if (mode?.startsWith('serve-')) {
  const role = mode.slice('serve-'.length) as Role;
  const serve = { clawgate: () => serveClawgate(), layer: () => serveClawgate(true), sdk: serveSdk, bare: serveBare }[role];
  serve().then(
    (url) => process.stdout.write(`READY ${url}\n`),
    (err: Error) => {
      console.error(err);
      process.exit(1);
    },
  );
} else {
  main().catch((err: Error) => {
    console.error(err);
    process.exit(1);
  });
}
