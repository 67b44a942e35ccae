/**
 * A2A `ListTasks` latency for one peer with a large task history: N finished tasks of ONE peer, then p50/p99
 * of the first page, of a walk of 20 pages following `nextPageToken`, and of each filter (`status`,
 * `contextId`, `statusTimestampAfter`). The goal is the first page's: p99 < 20 ms; every line prints its
 * figure, the goal and the ratio (figure/goal, ≤ 1 passes).
 *
 * The gateway runs in a child process (so this process, the HTTP client, never takes the gateway's event
 * loop), with `keptTasksPerPeer` above N so the cap trims nothing. It fills its task store in-process through
 * the TaskStore port (`app.get(TASK_STORE)`, `insert`, many in flight, so the group commit batches them),
 * prints the fill rate, and then serves. The tasks: status timestamps over the last 12 hours (three tasks per
 * timestamp, so ties are ordered by row), 100 contexts (1% of the tasks each), 92% COMPLETED with a reply
 * artifact, 4% FAILED, 4% CANCELED. This process sends JSON-RPC `ListTasks` (POST /a2a/v1, `A2A-Version: 1.0`)
 * one at a time over one keep-alive connection with the peer's bearer token, and checks every answer: HTTP 200,
 * a result, `totalSize` equal to what the fill rule says, a full page (or all there is), every task matching
 * the filter, newest status first; in a walk no task twice and each page older than the one before.
 *
 * Env: BENCH_TASKS [100000] tasks to create (≤ 1,000,000, the largest cap); BENCH_REQUESTS [500] requests per
 * query (page requests in total for the walk); BENCH_FILL_CONCURRENCY [512] inserts in flight during the fill.
 * Run: `npm run bench:list-tasks`.
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { spawnFilledGateway, stopChild } from './support/child-gateway';
import { fill, runBench } from './support/fill';
import { Figure, figure, printFigure, printWorst } from './support/latency';

const TASKS = Number(process.env.BENCH_TASKS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500);
const FILL_CONCURRENCY = Number(process.env.BENCH_FILL_CONCURRENCY ?? 512);
const PAGE_SIZE = 50;
const PAGES_PER_WALK = 20;
const WARMUP_REQUESTS = 20;
const GOAL_P99_MS = 20;
const MAX_KEPT = 1_000_000;
const PEER = 'bench';
const TOKEN = 'bench-peer-token-0123456789abcdef';
const CONTEXTS = 100;
const STATES = ['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED'] as const;
const HISTORY_MS = 12 * 3_600_000;
/** Where the status timestamps start: chosen here and handed to the child, so both sides apply one rule. */
const BASE_ENV = 'BENCH_LIST_TASKS_BASE';

/** Task i: its context, state and status timestamp — the same rule on both sides of the spawn. */
const contextOf = (i: number) => `bench-ctx-${String(i % CONTEXTS).padStart(3, '0')}`;
const stateOf = (i: number) => (i % 25 === 7 ? STATES[1] : i % 25 === 13 ? STATES[2] : STATES[0]);
const updatedAtOf = (base: number, i: number) => base + Math.floor(i / 3) * Math.max(1, Math.floor((3 * HISTORY_MS) / TASKS));

// ------------------------------------------------------------------------------------------------ child

async function serve(): Promise<void> {
  process.env.CLAWGATE_LOG_LEVEL = 'silent';
  const base = Number(process.env[BASE_ENV]);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-bench-list-tasks-'));
  const configPath = path.join(dir, 'openclaw.json');
  await fs.writeFile(
    configPath,
    `{ agents: { list: [{ id: "main" }] },
       channels: { a2a: { enabled: true, rateLimitPerMinute: 0, keptTasksPerPeer: ${MAX_KEPT}, peers: { ${PEER}: { token: "${TOKEN}" } } } } }`,
  );
  const { startGateway } = await import('../src/bootstrap');
  const { TASK_STORE } = await import('../src/modules/a2a-channel');
  const { timeOrderedId } = await import('../src/common/ids');
  type Store = import('../src/modules/a2a-channel').TaskStore;
  const gateway = await startGateway({ configPath, stateDir: path.join(dir, 'state'), portOverride: 0, env: { HOME: dir } });
  process.on(
    'SIGTERM',
    () => void gateway.close().finally(() => fs.rm(dir, { recursive: true, force: true }).finally(() => process.exit(0))),
  );
  const store = gateway.app.get<symbol, Store>(TASK_STORE);

  const seconds = await fill(
    TASKS,
    FILL_CONCURRENCY,
    async (i) => {
      const at = updatedAtOf(base, i);
      const state = stateOf(i);
      await store.insert({
        id: timeOrderedId(),
        peer: PEER,
        contextId: contextOf(i),
        agentId: 'main',
        sessionKey: `agent:main:a2a:default:direct:${PEER}:${contextOf(i)}`,
        messageId: `bench-message-${i}`,
        state,
        history: [{ messageId: `bench-message-${i}`, role: 'user', text: `benchmark task ${i}` }],
        ...(state === 'TASK_STATE_COMPLETED'
          ? { artifact: { artifactId: timeOrderedId(), text: `[main] benchmark reply ${i}` } }
          : {
              statusMessage: {
                messageId: timeOrderedId(),
                text: state === 'TASK_STATE_FAILED' ? 'model error' : 'Task canceled by the peer',
              },
            }),
        createdAt: at - 500,
        updatedAt: at,
      });
    },
    (done, elapsed) =>
      process.stdout.write(
        `PROGRESS fill ${String(done).padStart(String(TASKS).length)}/${TASKS}   ` +
          `${(done / elapsed).toFixed(0)} tasks/s so far, ${elapsed.toFixed(1)} s\n`,
      ),
  );
  process.stdout.write(`FILLED ${seconds} ${gateway.url}\n`);
}

// ------------------------------------------------------------------------------------------------ load

interface WireTask {
  id: string;
  contextId: string;
  status: { state: string; timestamp: string };
}

interface ListAnswer {
  tasks: WireTask[];
  nextPageToken: string;
  pageSize: number;
  totalSize: number;
}

/** What a query asks for and what the fill rule says it must find. */
interface Query {
  params: Record<string, unknown>;
  matches: (i: number) => boolean;
  accepts: (t: WireTask) => boolean;
}

class Client {
  private readonly pool: import('undici').Pool;
  private id = 0;

  constructor(Pool: typeof import('undici').Pool, origin: string) {
    this.pool = new Pool(origin, { connections: 1, pipelining: 1 });
  }

  /** One ListTasks call; its latency and the answer, checked for shape and order. */
  async list(params: Record<string, unknown>): Promise<{ ms: number; answer: ListAnswer }> {
    const body = JSON.stringify({ jsonrpc: '2.0', id: ++this.id, method: 'ListTasks', params });
    const started = performance.now();
    const res = await this.pool.request({
      path: '/a2a/v1',
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'a2a-version': '1.0' },
      body,
    });
    const text = await res.body.text();
    const ms = performance.now() - started;
    const reply = (res.statusCode === 200 ? JSON.parse(text) : {}) as { result?: ListAnswer };
    const answer = reply.result;
    if (!answer || !Array.isArray(answer.tasks) || answer.tasks.length > PAGE_SIZE || typeof answer.totalSize !== 'number') {
      throw new Error(`ListTasks ${JSON.stringify(params)}: HTTP ${res.statusCode} ${text.slice(0, 300)}`);
    }
    const times = answer.tasks.map((t) => Date.parse(t.status.timestamp));
    for (let k = 1; k < times.length; k++) {
      if (times[k - 1] < times[k]) throw new Error(`ListTasks ${JSON.stringify(params)}: not newest first at position ${k}`);
    }
    return { ms, answer };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** Wrong if the answer is not what the fill put in the store for `query`; undefined when it is. */
function wrongAnswer(answer: ListAnswer, query: Query, expectedTotal: number): string | undefined {
  if (answer.totalSize !== expectedTotal) return `totalSize ${answer.totalSize}, expected ${expectedTotal}`;
  if (answer.tasks.length !== Math.min(PAGE_SIZE, expectedTotal)) return `${answer.tasks.length} tasks on a page`;
  const stray = answer.tasks.find((t) => !query.accepts(t));
  return stray ? `task ${stray.id} (${stray.contextId}, ${stray.status.state}) does not match the filter` : undefined;
}

async function measure(client: Client, name: string, queries: Query[]): Promise<Figure> {
  const totals = queries.map((q) => Array.from({ length: TASKS }, (_, i) => i).filter(q.matches).length);
  for (let n = 0; n < WARMUP_REQUESTS; n++) await client.list(queries[n % queries.length].params);
  const latencies: number[] = [];
  for (let n = 0; n < REQUESTS; n++) {
    const query = queries[n % queries.length];
    const { ms, answer } = await client.list(query.params);
    const wrong = wrongAnswer(answer, query, totals[n % queries.length]);
    if (wrong) throw new Error(`ListTasks ${JSON.stringify(query.params)}: ${wrong}`);
    latencies.push(ms);
  }
  const f = figure(name, latencies);
  printFigure(f, GOAL_P99_MS);
  return f;
}

/** Walks of PAGES_PER_WALK pages following nextPageToken: each page full, older than the last, no task twice. */
async function measureWalk(client: Client): Promise<Figure> {
  const latencies: number[] = [];
  const walks = Math.max(1, Math.ceil(REQUESTS / PAGES_PER_WALK));
  for (let walk = 0; walk < walks; walk++) {
    const seen = new Set<string>();
    let pageToken = '';
    let oldest = Infinity;
    for (let page = 0; page < PAGES_PER_WALK; page++) {
      const { ms, answer } = await client.list({ pageSize: PAGE_SIZE, ...(pageToken ? { pageToken } : {}) });
      latencies.push(ms);
      const expected = Math.min(PAGE_SIZE, TASKS - page * PAGE_SIZE);
      if (answer.tasks.length !== expected || answer.totalSize !== TASKS) {
        throw new Error(`page ${page + 1} of a walk: ${answer.tasks.length} tasks, totalSize ${answer.totalSize}`);
      }
      const first = answer.tasks.length ? Date.parse(answer.tasks[0].status.timestamp) : oldest;
      if (first > oldest) throw new Error(`page ${page + 1} of a walk starts with a task newer than the end of page ${page}`);
      oldest = answer.tasks.length ? Date.parse(answer.tasks[answer.tasks.length - 1].status.timestamp) : oldest;
      for (const t of answer.tasks) {
        if (seen.has(t.id)) throw new Error(`page ${page + 1} of a walk repeats task ${t.id}`);
        seen.add(t.id);
      }
      pageToken = answer.nextPageToken;
      if (!pageToken) break;
    }
  }
  return figure(`${PAGES_PER_WALK} pages via nextPageToken (per page)`, latencies);
}

async function main(): Promise<void> {
  if (!(TASKS >= PAGES_PER_WALK * PAGE_SIZE && TASKS <= MAX_KEPT)) {
    throw new Error(`BENCH_TASKS must be between ${PAGES_PER_WALK * PAGE_SIZE} and ${MAX_KEPT}`);
  }
  console.log(
    `A2A ListTasks latency: ${TASKS} finished tasks of one peer, ${REQUESTS} requests per query (one at a time, ` +
      `keep-alive, the peer's bearer token, after ${WARMUP_REQUESTS} warm-up requests); ${os.cpus().length} CPUs, ` +
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  console.log(`  fill: TaskStore.insert in the gateway process, ${FILL_CONCURRENCY} in flight, ${CONTEXTS} contexts, 92/4/4% states`);
  const base = Date.now() - HISTORY_MS - 60_000;
  const { child, url, fillSeconds } = await spawnFilledGateway(__filename, { [BASE_ENV]: String(base) });
  const { Pool } = await import('undici');
  const client = new Client(Pool, url);
  try {
    console.log(`  fill done: ${TASKS} tasks in ${fillSeconds.toFixed(1)} s, ${(TASKS / fillSeconds).toFixed(0)} tasks/s`);
    const any = { matches: () => true, accepts: () => true };
    const since = updatedAtOf(base, Math.floor(TASKS * 0.9));
    const figures: Figure[] = [];
    figures.push(await measure(client, `first page (pageSize ${PAGE_SIZE})`, [{ params: { pageSize: PAGE_SIZE }, ...any }]));
    const walk = await measureWalk(client);
    printFigure(walk, GOAL_P99_MS);
    figures.push(walk);
    figures.push(
      await measure(
        client,
        'status=… (rotating)',
        STATES.map((state) => ({
          params: { pageSize: PAGE_SIZE, status: state },
          matches: (i) => stateOf(i) === state,
          accepts: (t) => t.status.state === state,
        })),
      ),
    );
    figures.push(
      await measure(
        client,
        `contextId=… (rotating, 1% each)`,
        Array.from({ length: CONTEXTS }, (_, c) => ({
          params: { pageSize: PAGE_SIZE, contextId: contextOf(c) },
          matches: (i) => contextOf(i) === contextOf(c),
          accepts: (t) => t.contextId === contextOf(c),
        })),
      ),
    );
    figures.push(
      await measure(client, 'statusTimestampAfter (newest 10%)', [
        {
          params: { pageSize: PAGE_SIZE, statusTimestampAfter: new Date(since).toISOString() },
          matches: (i) => updatedAtOf(base, i) >= since,
          accepts: (t) => Date.parse(t.status.timestamp) >= since,
        },
      ]),
    );
    printWorst(figures, GOAL_P99_MS);
  } finally {
    await client.close();
    await stopChild(child);
  }
}

runBench(process.argv[2] === 'serve' ? serve : main);
