/**
 * `GET /admin/sessions` latency over a large session store: N sessions across 20 agents, then p50/p99 of the
 * list with each of its filters, and a walk of 20 pages following `nextCursor`. The peer figure is the goal:
 * p99 ≤ 50 ms for every query; each line prints the figure, the goal and the ratio (figure/goal, ≤ 1 passes).
 *
 * The gateway runs in a child process (so this process, the HTTP client, never takes the gateway's event
 * loop). The child fills its store in-process through the SessionStore port (`app.get(SESSION_STORE)`,
 * `getOrCreate(key, {label?})`, many calls in flight at once; about 1% of the sessions get a label), prints
 * the fill rate, and then serves. This process sends the requests one at a time over one keep-alive
 * connection with a viewer admin token, and checks every answer (HTTP 200, the filter holds, newest first).
 *
 * Queries (limit=50 each): no filter; `agentId=` (rotating over the agents); `label=` (rotating over the
 * labels set in the fill: exactly one session each); `activeMinutes=60`. Paging: a walk starts at the first
 * page and follows `nextCursor` for 20 pages; a page answered without `nextCursor` (a store that does not
 * page) is reported and the paging figure skipped. No page may repeat a session of an earlier page.
 *
 * Env: BENCH_SESSIONS [1000000] sessions to create; BENCH_REQUESTS [500] requests per query (page requests in
 * total for paging); BENCH_FILL_CONCURRENCY [512] getOrCreate calls in flight during the fill.
 * Run: `npm run bench:sessions-list` (try BENCH_SESSIONS=5000 first: the fill rate decides the run time).
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { spawnFilledGateway, stopChild } from './support/child-gateway';
import { fill, runBench } from './support/fill';
import { Figure, figure, printFigure, printWorst } from './support/latency';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500);
const FILL_CONCURRENCY = Number(process.env.BENCH_FILL_CONCURRENCY ?? 512);
const AGENTS = Array.from({ length: 20 }, (_, i) => `agent-${String(i).padStart(2, '0')}`);
const LIMIT = 50;
const PAGES_PER_WALK = 20;
const WARMUP_REQUESTS = 20;
const GOAL_P99_MS = 50;
const ACTIVE_MINUTES = 60;
const ADMIN_TOKEN = 'bench-admin-viewer-token-0123456789abcdef';

/** Session i: its agent, key and (for 1 in 100) label — the same rule on both sides of the spawn. */
const agentOf = (i: number) => AGENTS[i % AGENTS.length];
const keyOf = (i: number) => `agent:${agentOf(i)}:direct:user-${i}`;
const labelOf = (i: number) => (i % 100 === 7 ? `topic-${i}` : undefined);

// ------------------------------------------------------------------------------------------------ child

async function serve(): Promise<void> {
  process.env.CLAWGATE_LOG_LEVEL = 'silent';
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-bench-sessions-list-'));
  const configPath = path.join(dir, 'openclaw.json');
  await fs.writeFile(
    configPath,
    `{ agents: { list: [${AGENTS.map((id) => `{ id: "${id}" }`).join(', ')}] },
       gateway: { admin: { tokens: [{ name: "bench", token: "${ADMIN_TOKEN}", role: "viewer" }] } } }`,
  );
  const { startGateway } = await import('../src/bootstrap');
  const { SESSION_STORE } = await import('../src/modules/sessions');
  type Store = import('../src/modules/sessions').SessionStore;
  const gateway = await startGateway({ configPath, stateDir: path.join(dir, 'state'), portOverride: 0, env: { HOME: dir } });
  process.on(
    'SIGTERM',
    () => void gateway.close().finally(() => fs.rm(dir, { recursive: true, force: true }).finally(() => process.exit(0))),
  );
  const store = gateway.app.get<symbol, Store>(SESSION_STORE);

  const seconds = await fill(
    SESSIONS,
    FILL_CONCURRENCY,
    async (i) => {
      const label = labelOf(i);
      await store.getOrCreate(keyOf(i), label ? { label } : undefined);
    },
    (done, elapsed) =>
      process.stdout.write(
        `PROGRESS fill ${String(done).padStart(String(SESSIONS).length)}/${SESSIONS}   ` +
          `${(done / elapsed).toFixed(0)} sessions/s so far, ${elapsed.toFixed(1)} s\n`,
      ),
  );
  process.stdout.write(`FILLED ${seconds} ${gateway.url}\n`);
}

// ------------------------------------------------------------------------------------------------ load

interface Entry {
  sessionKey: string;
  agentId: string;
  label?: string;
  updatedAt: string;
}

interface ListAnswer {
  count: number;
  sessions: Entry[];
  nextCursor?: string;
}

class Client {
  private readonly pool: import('undici').Pool;

  constructor(
    Pool: typeof import('undici').Pool,
    private readonly origin: string,
  ) {
    this.pool = new Pool(origin, { connections: 1, pipelining: 1 });
  }

  /** One GET of /admin/sessions with `query`; its latency and the checked answer. */
  async list(query: string): Promise<{ ms: number; answer: ListAnswer }> {
    const started = performance.now();
    const res = await this.pool.request({
      path: `/admin/sessions?${query}`,
      method: 'GET',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const text = await res.body.text();
    const ms = performance.now() - started;
    if (res.statusCode !== 200) throw new Error(`GET /admin/sessions?${query}: HTTP ${res.statusCode} ${text.slice(0, 300)}`);
    const answer = JSON.parse(text) as ListAnswer;
    if (!Array.isArray(answer.sessions) || answer.count !== answer.sessions.length || answer.sessions.length > LIMIT) {
      throw new Error(`GET /admin/sessions?${query}: unexpected answer ${text.slice(0, 300)}`);
    }
    for (let k = 1; k < answer.sessions.length; k++) {
      if (answer.sessions[k - 1].updatedAt < answer.sessions[k].updatedAt) {
        throw new Error(`GET /admin/sessions?${query}: not newest first at position ${k}`);
      }
    }
    return { ms, answer };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

async function measure(
  client: Client,
  name: string,
  queryOf: (n: number) => string,
  check: (answer: ListAnswer, n: number) => string | undefined,
): Promise<Figure> {
  for (let n = 0; n < WARMUP_REQUESTS; n++) await client.list(queryOf(n));
  const latencies: number[] = [];
  for (let n = 0; n < REQUESTS; n++) {
    const query = queryOf(n);
    const { ms, answer } = await client.list(query);
    const wrong = check(answer, n);
    if (wrong) throw new Error(`GET /admin/sessions?${query}: ${wrong}`);
    latencies.push(ms);
  }
  const f = figure(name, latencies);
  printFigure(f, GOAL_P99_MS);
  return f;
}

/** Walks of PAGES_PER_WALK pages following nextCursor; undefined when the first page carries no cursor. */
async function measurePaging(client: Client): Promise<Figure | undefined> {
  const first = await client.list(`limit=${LIMIT}`);
  if (first.answer.nextCursor === undefined) return undefined;
  const latencies: number[] = [];
  const walks = Math.max(1, Math.ceil(REQUESTS / PAGES_PER_WALK));
  for (let walk = 0; walk < walks; walk++) {
    const seen = new Set<string>();
    let cursor: string | undefined;
    let oldest: string | undefined;
    for (let page = 0; page < PAGES_PER_WALK; page++) {
      const query = `limit=${LIMIT}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
      const { ms, answer } = await client.list(query);
      latencies.push(ms);
      if (oldest !== undefined && answer.sessions.length && answer.sessions[0].updatedAt > oldest) {
        throw new Error(`page ${page + 1} of a walk starts with a session newer than the end of page ${page}`);
      }
      oldest = answer.sessions.at(-1)?.updatedAt ?? oldest;
      for (const s of answer.sessions) {
        if (seen.has(s.sessionKey)) throw new Error(`page ${page + 1} of a walk repeats session ${s.sessionKey}`);
        seen.add(s.sessionKey);
      }
      cursor = answer.nextCursor;
      if (cursor === undefined) {
        if (seen.size < Math.min(SESSIONS, PAGES_PER_WALK * LIMIT)) throw new Error(`nextCursor missing after page ${page + 1}`);
        break;
      }
    }
  }
  return figure(`${PAGES_PER_WALK} pages via nextCursor (per page)`, latencies);
}

async function main(): Promise<void> {
  if (!(SESSIONS >= AGENTS.length * LIMIT)) throw new Error(`BENCH_SESSIONS must be at least ${AGENTS.length * LIMIT}`);
  console.log(
    `GET /admin/sessions latency: ${SESSIONS} sessions over ${AGENTS.length} agents, ${REQUESTS} requests per query ` +
      `(one at a time, keep-alive, viewer token, after ${WARMUP_REQUESTS} warm-up requests); ${os.cpus().length} CPUs`,
  );
  console.log(`  fill: SessionStore.getOrCreate in the gateway process, ${FILL_CONCURRENCY} in flight, 1% with a label`);
  const { child, url, fillSeconds } = await spawnFilledGateway(__filename);
  const { Pool } = await import('undici');
  const client = new Client(Pool, url);
  try {
    console.log(`  fill done: ${SESSIONS} sessions in ${fillSeconds.toFixed(1)} s, ${(SESSIONS / fillSeconds).toFixed(0)} sessions/s`);
    const labelled = Array.from({ length: SESSIONS }, (_, i) => i).filter((i) => labelOf(i) !== undefined);
    const full = (answer: ListAnswer) =>
      answer.sessions.length === LIMIT ? undefined : `${answer.sessions.length} sessions, not ${LIMIT}`;
    const figures: Figure[] = [];
    figures.push(await measure(client, `limit=${LIMIT}`, () => `limit=${LIMIT}`, full));
    figures.push(
      await measure(
        client,
        `agentId=…&limit=${LIMIT}`,
        (n) => `agentId=${agentOf(n)}&limit=${LIMIT}`,
        (answer, n) => full(answer) ?? (answer.sessions.some((s) => s.agentId !== agentOf(n)) ? 'a session of another agent' : undefined),
      ),
    );
    figures.push(
      await measure(
        client,
        `label=…&limit=${LIMIT}`,
        (n) => `label=${labelOf(labelled[n % labelled.length])}&limit=${LIMIT}`,
        (answer, n) => {
          const i = labelled[n % labelled.length];
          return answer.sessions.length === 1 && answer.sessions[0].sessionKey === keyOf(i) && answer.sessions[0].label === labelOf(i)
            ? undefined
            : `expected only ${keyOf(i)}, got ${answer.sessions.map((s) => s.sessionKey).join(', ')}`;
        },
      ),
    );
    figures.push(
      await measure(client, `activeMinutes=${ACTIVE_MINUTES}&limit=${LIMIT}`, () => `activeMinutes=${ACTIVE_MINUTES}&limit=${LIMIT}`, full),
    );
    const paging = await measurePaging(client);
    if (paging) {
      printFigure(paging, GOAL_P99_MS);
      figures.push(paging);
    } else console.log(`  ${PAGES_PER_WALK} pages via nextCursor: skipped — the first page has no nextCursor (this store does not page)`);
    printWorst(figures, GOAL_P99_MS);
  } finally {
    await client.close();
    await stopChild(child);
  }
}

runBench(process.argv[2] === 'serve' ? serve : main);
