/**
 * What one A2A message costs the shared services of a cluster (docs/deploy.md#a-paper-plan-for-10-to-50-replicas),
 * measured, not estimated: blocking SendMessage with bearer auth to the echo agent, a new context per message,
 * against
 *
 *   sqlite      one gateway on its own state dir (the default)
 *   cluster-1   one replica with gateway.state on PostgreSQL and gateway.cluster on Redis
 *   cluster-2   two replicas on the same PostgreSQL database and Redis, the client sending in turn to each
 *
 * A real PostgreSQL and Redis are started for the run (test/system/support: the Debian packages' programs in a
 * temp dir), each cluster phase on a database of its own and a Redis database number of its own. Each gateway runs
 * in its own child process; this process only generates load (undici, keep-alive) and reads the services'
 * statistics. Every answer is checked (HTTP 200, COMPLETED, the echo text).
 *
 * Printed per phase: req/s and p50/p99 over the measured window; the gateways' CPU per message; the round trips the
 * gateways' clients sent per message over the window, with the PostgreSQL transactions among them (a statement
 * outside BEGIN … COMMIT is one, BEGIN … COMMIT is one: exact and limited to the window); Redis commands
 * per message over the window (INFO commandstats delta, the bench's own INFO calls left out, by command) and Redis's
 * CPU per message, with the idle background rate (heartbeats) measured before the load; PostgreSQL transactions
 * (pg_stat_database xact_commit + xact_rollback) and rows inserted/updated/deleted (pg_stat_user_tables) per
 * message over the phase's whole life (start-ups and migrations included, so above the window's count) — read
 * after the replicas stopped, since a backend reports its statistics late but always on exit, divided by every
 * message answered, warm-up included — and the PostgreSQL server's CPU
 * per message over the window (/proc). The figures are whatever the code does: nothing here knows which stores
 * are on PostgreSQL.
 *
 * Env: BENCH_CONCURRENCY [32] connections in all; BENCH_SECONDS [4] measured window per phase, after a 2 s
 * warm-up; BENCH_ONLY a comma list of phases (sqlite,cluster-1,cluster-2); BENCH_STATEMENTS=1 also prints the
 * PostgreSQL round trips per message by statement (its first words).
 * Run: `npm run bench:cluster` (about a minute, start-ups included).
 */
import * as os from 'node:os';
import { performance } from 'node:perf_hooks';
import { startPostgres, TestPostgres } from '../test/system/support/postgres';
import { startRedis, TestRedis } from '../test/system/support/redis';
import { startClawgate } from './support/a2a-servers';
import {
  pgDelta,
  pgCounters,
  postgresCpuSeconds,
  redisDelta,
  redisStats,
  settledPgCounters,
  type PgCounters,
  type RedisStats,
} from './support/cluster-stats';
import { countInWindow, endWindow, serveOrRun, ServerProcess, spawnServer, startWindow } from './support/server-process';
import { stopChild } from './support/child-gateway';

/** BENCH_STATEMENTS=1: also print the PostgreSQL round trips per message by statement. */
const BY_STATEMENT = process.env.BENCH_STATEMENTS === '1';
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const MEASURE_MS = Number(process.env.BENCH_SECONDS ?? 4) * 1000;
const WARMUP_MS = 2_000;
/** The idle interval before the load in which the replicas' background Redis traffic (heartbeats) is counted. */
const IDLE_MS = 2_000;
const TOKEN = 'bench-peer-token-0123456789abcdef';
const AGENT = 'main';
const TEXT = 'benchmark ping: summarize the state of the deploy';
const REPLY = `[${AGENT}] ${TEXT}`;

type Phase = 'sqlite' | 'cluster-1' | 'cluster-2';
const PHASES: Record<Phase, number> = { sqlite: 1, 'cluster-1': 1, 'cluster-2': 2 };

// ------------------------------------------------------------------------------------------------ servers

/**
 * Each query the gateway's PostgreSQL client sends and each command its Redis client sends is one round trip
 * (neither pipelines here): counted in the client, per measured window.
 */
async function countRoundTrips(): Promise<void> {
  const pg = await import('pg');
  const query = pg.Client.prototype.query;
  const inTransaction = new WeakSet<object>();
  pg.Client.prototype.query = function (this: object, ...args: unknown[]) {
    countInWindow('pg');
    const name = statementName(args[0]);
    if (BY_STATEMENT) countInWindow(`pg: ${name}`);
    // A statement outside BEGIN … COMMIT is a transaction of its own.
    if (name === 'BEGIN') inTransaction.add(this);
    else if (name === 'COMMIT' || name === 'ROLLBACK') {
      inTransaction.delete(this);
      countInWindow('pg-transactions');
    } else if (!inTransaction.has(this)) countInWindow('pg-transactions');
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  const Redis = (await import('ioredis')).default;
  const sendCommand = Redis.prototype.sendCommand;
  Redis.prototype.sendCommand = function (this: unknown, ...args: Parameters<typeof sendCommand>) {
    countInWindow('redis');
    return sendCommand.apply(this, args);
  };
}

/** A statement's first words (its kind and table), what BENCH_STATEMENTS groups the round trips by. */
function statementName(query: unknown): string {
  const text = typeof query === 'string' ? query : ((query as { text?: string } | undefined)?.text ?? '?');
  return text.replace(/\s+/g, ' ').trim().slice(0, 70);
}

/** A gateway: SQLite by default, or on the PostgreSQL database and Redis the parent put in the environment. */
async function serveGateway(): Promise<string> {
  const db = process.env.BENCH_DATABASE_URL;
  const redis = process.env.BENCH_REDIS_URL;
  await countRoundTrips();
  const gateway = db && redis ? `{ state: { backend: "postgres", url: "${db}" }, cluster: { redis: { url: "${redis}" } } }` : undefined;
  const running = await startClawgate({ agent: AGENT, peers: { bench: TOKEN }, gateway });
  return `${running.url}/a2a/v1`;
}

// ------------------------------------------------------------------------------------------------ load

type Pool = import('undici').Pool;

interface Load {
  /** Completed in the measured window. */
  latencies: number[];
  seconds: number;
  /** Every message answered, warm-up and the window's tail included. */
  answered: number;
  errors: number;
  /** Server CPU (all replicas, all threads) over the window, µs. */
  serverCpuMicros: number;
  /** Round trips the replicas' clients sent over the window (countRoundTrips), summed. */
  roundTrips: { pg: number; redis: number };
  /** Transactions the replicas' PostgreSQL clients ran over the window (countRoundTrips), summed. */
  pgTransactions: number;
  /** With BENCH_STATEMENTS: the PostgreSQL round trips by statement, summed over the replicas. */
  statements: Map<string, number>;
  redisWindow?: { before: RedisStats; after: RedisStats };
  pgCpuWindow?: number;
}

async function send(pool: Pool, pathname: string, id: string): Promise<{ ok: boolean; text: string; elapsed: number }> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'SendMessage',
    params: { message: { messageId: `m-${id}`, role: 'ROLE_USER', parts: [{ text: TEXT }] } },
  });
  const started = performance.now();
  const res = await pool.request({
    path: pathname,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', authorization: `Bearer ${TOKEN}` },
    body,
  });
  const text = await res.body.text();
  const elapsed = performance.now() - started;
  const task = res.statusCode === 200 ? JSON.parse(text).result?.task : undefined;
  const ok = task?.status?.state === 'TASK_STATE_COMPLETED' && task.artifacts?.[0]?.parts?.[0]?.text === REPLY;
  return { ok, text: `HTTP ${res.statusCode}: ${text.slice(0, 300)}`, elapsed };
}

/** Round-robin over the replicas: message n goes to replica n mod count, whichever connection sends it. */
async function load(servers: ServerProcess[], redis: import('ioredis').default | undefined, pgDataDir: string | undefined): Promise<Load> {
  const { Pool } = await import('undici');
  const targets = servers.map((s) => {
    const url = new URL(s.url);
    return { pool: new Pool(url.origin, { connections: Math.ceil(CONCURRENCY / servers.length), pipelining: 1 }), path: url.pathname };
  });
  const latencies: number[] = [];
  let measuring = false;
  let stop = false;
  let next = 0;
  let answered = 0;
  let errors = 0;
  const workers = Array.from({ length: CONCURRENCY }, async (_, worker) => {
    for (let seq = 0; !stop; seq++) {
      const target = targets[next++ % targets.length];
      const sent = await send(target.pool, target.path, `${worker}-${seq}`);
      if (!sent.ok) {
        if (errors++ === 0) console.error(`  unexpected answer: ${sent.text}`);
        continue;
      }
      answered++;
      if (measuring) latencies.push(sent.elapsed);
    }
  });
  await new Promise((r) => setTimeout(r, WARMUP_MS));
  await Promise.all(servers.map((s) => startWindow(s.child)));
  const redisBefore = redis && (await redisStats(redis));
  const pgCpuBefore = pgDataDir ? await postgresCpuSeconds(pgDataDir) : undefined;
  measuring = true;
  const began = performance.now();
  await new Promise((r) => setTimeout(r, MEASURE_MS));
  measuring = false;
  const seconds = (performance.now() - began) / 1000;
  const redisAfter = redis && (await redisStats(redis));
  const pgCpuAfter = pgDataDir ? await postgresCpuSeconds(pgDataDir) : undefined;
  const windows = await Promise.all(servers.map((s) => endWindow(s.child)));
  stop = true;
  await Promise.all(workers);
  await Promise.all(targets.map((t) => t.pool.close()));
  return {
    latencies,
    seconds,
    answered,
    errors,
    serverCpuMicros: windows.reduce((sum, w) => sum + w.cpuMicros, 0),
    roundTrips: {
      pg: windows.reduce((sum, w) => sum + (w.counts.pg ?? 0), 0),
      redis: windows.reduce((sum, w) => sum + (w.counts.redis ?? 0), 0),
    },
    pgTransactions: windows.reduce((sum, w) => sum + (w.counts['pg-transactions'] ?? 0), 0),
    statements: statementCounts(windows.map((w) => w.counts)),
    redisWindow: redisBefore && redisAfter ? { before: redisBefore, after: redisAfter } : undefined,
    pgCpuWindow: pgCpuBefore !== undefined && pgCpuAfter !== undefined ? pgCpuAfter - pgCpuBefore : undefined,
  };
}

function statementCounts(counts: Array<Record<string, number>>): Map<string, number> {
  const byStatement = new Map<string, number>();
  for (const c of counts)
    for (const [name, n] of Object.entries(c))
      if (name.startsWith('pg: ')) byStatement.set(name.slice(4), (byStatement.get(name.slice(4)) ?? 0) + n);
  return byStatement;
}

// ------------------------------------------------------------------------------------------------ phases

const f1 = (n: number) => n.toFixed(n < 10 ? 2 : 1);

/** What the goals are checked on, per phase. */
interface PhaseFigures {
  phase: Phase;
  reqPerSecond: number;
  cpuPerMessage: number;
  pgRoundTrips: number;
  pgTransactions: number;
  redisCommands?: number;
}

async function runPhase(
  phase: Phase,
  services: { pg: TestPostgres; redis: TestRedis } | undefined,
  db: number,
): Promise<PhaseFigures | undefined> {
  const replicas = PHASES[phase];
  const cluster = phase !== 'sqlite' && services;
  let databaseUrl: string | undefined;
  let redisClient: import('ioredis').default | undefined;
  if (cluster) {
    databaseUrl = await services.pg.createDatabase(`bench_${phase.replace('-', '_')}`);
    process.env.BENCH_DATABASE_URL = databaseUrl;
    process.env.BENCH_REDIS_URL = `${services.redis.url}/${db}`;
    const Redis = (await import('ioredis')).default;
    redisClient = new Redis(services.redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redisClient.connect();
  } else {
    delete process.env.BENCH_DATABASE_URL;
    delete process.env.BENCH_REDIS_URL;
  }
  const pgBefore: PgCounters | undefined = databaseUrl ? await pgCounters(databaseUrl) : undefined;
  // One after the other: two replicas starting together would only take turns on the migration lock.
  const servers: ServerProcess[] = [];
  try {
    for (let i = 0; i < replicas; i++) servers.push(await spawnServer(__filename, 'gateway'));
    let idleRedisPerSecond: number | undefined;
    if (redisClient) {
      const idleBefore = await redisStats(redisClient);
      await new Promise((r) => setTimeout(r, IDLE_MS));
      idleRedisPerSecond = redisDelta(idleBefore, await redisStats(redisClient)).total / (IDLE_MS / 1000);
    }
    const result = await load(servers, redisClient, cluster ? `${services.pg.dir}/data` : undefined);
    await Promise.all(servers.splice(0).map((s) => stopChild(s.child)));
    result.latencies.sort((a, b) => a - b);
    const at = (q: number) => result.latencies[Math.min(result.latencies.length - 1, Math.floor(q * result.latencies.length))] ?? NaN;
    const inWindow = result.latencies.length;
    console.log(
      `  ${phase.padEnd(9)} ${(inWindow / result.seconds).toFixed(0).padStart(6)} req/s   p50 ${at(0.5).toFixed(2).padStart(7)} ms   ` +
        `p99 ${at(0.99).toFixed(2).padStart(7)} ms   (${inWindow} in the window, ${result.errors} bad answers; ${replicas} replica(s))`,
    );
    const perWindowMessage = (n: number) => f1(n / Math.max(1, inWindow));
    console.log(
      `            gateway CPU ${(result.serverCpuMicros / Math.max(1, inWindow)).toFixed(0)} µs per message (all replicas, all threads); ` +
        `round trips sent per message: PostgreSQL ${perWindowMessage(result.roundTrips.pg)} ` +
        `(${perWindowMessage(result.pgTransactions)} transactions), Redis ${perWindowMessage(result.roundTrips.redis)}`,
    );
    for (const [name, n] of [...result.statements].sort((a, b) => b[1] - a[1]))
      console.log(`              ${perWindowMessage(n).padStart(5)} × ${name}`);
    const figures: PhaseFigures = {
      phase,
      reqPerSecond: inWindow / result.seconds,
      cpuPerMessage: result.serverCpuMicros / Math.max(1, inWindow),
      pgRoundTrips: result.roundTrips.pg / Math.max(1, inWindow),
      pgTransactions: result.pgTransactions / Math.max(1, inWindow),
    };
    if (result.redisWindow && idleRedisPerSecond !== undefined) {
      const delta = redisDelta(result.redisWindow.before, result.redisWindow.after);
      const background = idleRedisPerSecond * result.seconds;
      const perMessage = (delta.total - background) / Math.max(1, inWindow);
      figures.redisCommands = perMessage;
      const commands = delta.byCommand.map(([name, n]) => `${name} ${f1(n / Math.max(1, inWindow))}`).join(', ');
      console.log(
        `            Redis ${f1(perMessage)} commands executed per message, scripts' inner calls included (${commands}; background ${idleRedisPerSecond.toFixed(1)}/s ` +
          `subtracted), Redis CPU ${((delta.cpuSeconds * 1e6) / Math.max(1, inWindow)).toFixed(0)} µs per message`,
      );
    }
    if (databaseUrl && pgBefore) {
      const pg = pgDelta(pgBefore, await settledPgCounters(databaseUrl));
      const per = (n: number) => f1(n / Math.max(1, result.answered));
      const cpu = result.pgCpuWindow === undefined ? 'n/a' : `${((result.pgCpuWindow * 1e6) / Math.max(1, inWindow)).toFixed(0)} µs`;
      console.log(
        `            PostgreSQL ${per(pg.commits + pg.rollbacks)} transactions per message (${pg.rollbacks} rollbacks in all), rows ` +
          `inserted ${per(pg.inserted)}, updated ${per(pg.updated)}, deleted ${per(pg.deleted)} per message ` +
          `(${result.answered} messages over the phase), PostgreSQL CPU ${cpu} per message`,
      );
    }
    if (result.errors > 0) process.exitCode = 1;
    return figures;
  } finally {
    await Promise.all(servers.map((s) => stopChild(s.child)));
    await redisClient?.quit();
  }
}

async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY?.split(',');
  const phases = (Object.keys(PHASES) as Phase[]).filter((p) => !only || only.includes(p));
  console.log(
    `Cluster cost per A2A SendMessage (blocking, echo agent, bearer auth, a new context per message): ${CONCURRENCY} ` +
      `connections, ${MEASURE_MS / 1000} s per phase after ${WARMUP_MS / 1000} s warm-up; ${os.cpus().length} CPUs, ` +
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} at the start`,
  );
  const needsServices = phases.some((p) => p !== 'sqlite');
  const pg = needsServices ? await startPostgres() : undefined;
  const redis = needsServices ? await startRedis() : undefined;
  const figures: PhaseFigures[] = [];
  try {
    let db = 1;
    for (const phase of phases) {
      const measured = await runPhase(phase, pg && redis ? { pg, redis } : undefined, db++);
      if (measured) figures.push(measured);
    }
    printGoals(figures);
  } finally {
    await redis?.destroy();
    await pg?.stop();
  }
}

/** The goals of a cluster's cost per message, each [pass], [FAIL], or [ -- ] when this run did not measure it. */
function printGoals(figures: PhaseFigures[]): void {
  const of = (phase: Phase) => figures.find((f) => f.phase === phase);
  const sqlite = of('sqlite');
  const line = (verdict: boolean | undefined, goal: string, figure: string) =>
    console.log(`  ${verdict === undefined ? '[ -- ]' : verdict ? '[pass]' : '[FAIL]'} ${goal.padEnd(66)} ${figure}`);
  console.log('goals:');
  const two = of('cluster-2');
  line(
    two && sqlite ? two.reqPerSecond >= sqlite.reqPerSecond : undefined,
    'two replicas ≥ 1× the SQLite process req/s',
    two && sqlite
      ? `${(two.reqPerSecond / sqlite.reqPerSecond).toFixed(2)}x (${two.reqPerSecond.toFixed(0)} vs ${sqlite.reqPerSecond.toFixed(0)})`
      : '',
  );
  for (const f of figures.filter((x) => x.phase !== 'sqlite')) {
    line(f.pgRoundTrips <= 1, `${f.phase}: ≤ 1 PostgreSQL round trip per message`, f1(f.pgRoundTrips));
    line(f.pgTransactions <= 0.5, `${f.phase}: ≤ 0.5 PostgreSQL transactions per message`, f1(f.pgTransactions));
    line(
      f.redisCommands === undefined ? undefined : f.redisCommands <= 3,
      `${f.phase}: ≤ 3 Redis commands per message`,
      f.redisCommands === undefined ? '' : f1(f.redisCommands),
    );
    line(
      sqlite ? f.cpuPerMessage <= 1.5 * sqlite.cpuPerMessage : undefined,
      `${f.phase}: gateway CPU per message ≤ 1.5× the SQLite process's`,
      sqlite
        ? `${(f.cpuPerMessage / sqlite.cpuPerMessage).toFixed(2)}x (${f.cpuPerMessage.toFixed(0)} vs ${sqlite.cpuPerMessage.toFixed(0)} µs)`
        : '',
    );
  }
}

serveOrRun({ gateway: serveGateway }, main);
