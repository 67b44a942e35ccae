/**
 * Soak: mixed load against one real gateway process on 127.0.0.1 for SOAK_MINUTES [2], then a verdict.
 *
 * The load, paced at SOAK_RPS [40] requests/s by SOAK_CONCURRENCY [8] connections and capped at
 * 1.2 × rps × duration requests: A2A SendMessage (blocking) and GetTask, http channel messages, sessions_send
 * through the admin session action, admin reads, memory searches; beside it a config edit through the admin
 * API every 3 s (If-Match, alternating rename / add / remove of an agent), a memory note rewritten every 2 s
 * and a memory reindex every 30 s. Conversations come from fixed pools (40 A2A contexts, 40 http peers, 20
 * notes), so the data the gateway keeps in memory is bounded: what keeps growing is a leak.
 *
 * Every SOAK_SAMPLE_SECONDS [5] it samples RSS and open fds from /proc/<pid> and heap used and event-loop
 * delay p99 from the gateway's /metrics (prom-client's default Node.js metrics; the p99 covers the time since
 * the previous scrape). At the end it prints the curves as a table and exits 1 when a request failed, the
 * gateway logged an error, it did not stop cleanly on SIGTERM, or a resource grew without bound (see
 * `growthVerdict`). Run: `npm run soak` (2 min), `SOAK_MINUTES=30 npm run soak` (the long run).
 */
import { promises as fs, readdirSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { transpileCli } from '../test/fixtures/cli-runner';
import { GatewayProcess } from '../test/fixtures/gateway-process';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 2);
const RPS = Number(process.env.SOAK_RPS ?? 40);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 8);
const SAMPLE_MS = Number(process.env.SOAK_SAMPLE_SECONDS ?? 5) * 1000;
const DURATION_MS = MINUTES * 60_000;
const MAX_REQUESTS = Math.ceil(RPS * (DURATION_MS / 1000) * 1.2);
/** The first part of the run is not judged: heaps, JIT code, caches and the run registry fill up there. */
const WARMUP_MS = Math.max(30_000, DURATION_MS * 0.2);

const HTTP_TOKEN = 'soak-http-token-00000000000000001';
const PEER_TOKEN = 'soak-peer-token-00000000000000001';
const CONTEXTS = 40;
const HTTP_PEERS = 40;
const NOTES = 20;
const WORDS = ['deploy', 'rollback', 'billing', 'latency', 'invoice', 'incident', 'release', 'migration', 'database', 'backup'];

// --------------------------------------------------------------------------------------------- the load

interface Interval {
  requests: number;
  failures: number;
  latencies: number[];
}

class Recorder {
  total = 0;
  failures: string[] = [];
  private current: Interval = { requests: 0, failures: 0, latencies: [] };

  record(ms: number, failure?: string): void {
    this.total++;
    this.current.requests++;
    this.current.latencies.push(ms);
    if (failure !== undefined) {
      this.current.failures++;
      if (this.failures.length < 50) this.failures.push(failure);
    }
  }

  /** What happened since the previous call. */
  take(): Interval {
    const out = this.current;
    this.current = { requests: 0, failures: 0, latencies: [] };
    return out;
  }
}

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

let baseUrl = '';
/** For the watchdog. */
let running: GatewayProcess | undefined;
const recorder = new Recorder();

/** One counted request; `expect` returns a failure description or undefined. */
async function call(
  what: string,
  pathname: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown },
  expect: (a: Answer) => string | undefined = () => undefined,
): Promise<Answer | undefined> {
  const started = performance.now();
  let answer: Answer | undefined;
  let failure: string | undefined;
  try {
    const res = await fetch(`${baseUrl}${pathname}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      // An API client, not a form: its body-less admin writes (delete, reindex) carry the header (docs/admin-security.md).
      headers: {
        'X-Clawgate-Client': 'bench',
        ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    answer = { status: res.status, headers: res.headers, body };
    const wrong = res.status < 200 || res.status > 299 ? `HTTP ${res.status} ${text.slice(0, 300)}` : expect(answer);
    if (wrong !== undefined) failure = `${what}: ${wrong}`;
  } catch (err) {
    failure = `${what}: ${(err as Error).message}`;
  }
  recorder.record(performance.now() - started, failure);
  return failure ? undefined : answer;
}

let seed = 1;
/** Deterministic enough for a load mix; Math.random would do as well. */
function random(): number {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];

const recentTasks: string[] = [];
let sent = 0;

async function a2aSend(): Promise<void> {
  const text = `${pick(WORDS)} status ${sent++}`;
  const answer = await call(
    'A2A SendMessage',
    '/a2a/v1',
    {
      headers: { Authorization: `Bearer ${PEER_TOKEN}` },
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: {
          message: { messageId: `m-${sent}`, role: 'ROLE_USER', contextId: `ctx-${Math.floor(random() * CONTEXTS)}`, parts: [{ text }] },
        },
      },
    },
    (a) =>
      a.body?.result?.task?.status?.state === 'TASK_STATE_COMPLETED' && a.body.result.task.artifacts[0]?.parts[0]?.text === `[main] ${text}`
        ? undefined
        : `unexpected answer ${JSON.stringify(a.body).slice(0, 300)}`,
  );
  if (answer) {
    recentTasks.push(answer.body.result.task.id as string);
    if (recentTasks.length > 100) recentTasks.shift();
  }
}

async function a2aGet(): Promise<void> {
  if (!recentTasks.length) return a2aSend();
  const id = pick(recentTasks);
  await call(
    'A2A GetTask',
    '/a2a/v1',
    { headers: { Authorization: `Bearer ${PEER_TOKEN}` }, body: { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id } } },
    (a) => (a.body?.result?.id === id ? undefined : `unexpected answer ${JSON.stringify(a.body).slice(0, 300)}`),
  );
}

async function httpMessage(): Promise<void> {
  const text = `${pick(WORDS)} question ${sent++}`;
  await call(
    'http channel message',
    '/channels/http/messages',
    {
      headers: { Authorization: `Bearer ${HTTP_TOKEN}` },
      body: { peer: { kind: 'direct', id: `peer-${Math.floor(random() * HTTP_PEERS)}` }, text },
    },
    (a) =>
      a.body?.status === 'completed' && a.body.reply === `[main] ${text}`
        ? undefined
        : `unexpected answer ${JSON.stringify(a.body).slice(0, 300)}`,
  );
}

/** The helper's main session exists once the first sessions_send answered; its history is read from then on. */
let helperSession = false;

async function sessionsSend(): Promise<void> {
  const message = `${pick(WORDS)} handoff ${sent++}`;
  const answer = await call(
    'sessions_send',
    `/admin/sessions/${encodeURIComponent('agent:main:main')}/send`,
    { body: { agentId: 'helper', message, timeoutSeconds: 30 } },
    (a) =>
      a.body?.status === 'ok' && a.body.reply === `[helper] ${message}`
        ? undefined
        : `unexpected answer ${JSON.stringify(a.body).slice(0, 300)}`,
  );
  if (answer) helperSession = true;
}

const ADMIN_READS = [
  '/admin/agents',
  '/admin/config/status',
  '/admin/sessions?limit=20',
  '/admin/a2a/tasks?limit=20',
  '/admin/bindings',
  '/healthz',
  '/readyz',
  '/admin/agents/mem/memory/collections',
];

async function adminRead(): Promise<void> {
  const target =
    helperSession && random() < 0.2 ? `/admin/sessions/${encodeURIComponent('agent:helper:main')}/history?limit=20` : pick(ADMIN_READS);
  await call(`GET ${target}`, target, {});
}

async function memorySearch(): Promise<void> {
  await call(`memory search`, `/admin/agents/mem/memory/search?q=${pick(WORDS)}`, {}, (a) =>
    Array.isArray(a.body?.results) ? undefined : `unexpected answer ${JSON.stringify(a.body).slice(0, 300)}`,
  );
}

const MIX: Array<[weight: number, op: () => Promise<void>]> = [
  [30, a2aSend],
  [10, a2aGet],
  [25, httpMessage],
  [10, sessionsSend],
  [15, adminRead],
  [10, memorySearch],
];
const MIX_TOTAL = MIX.reduce((n, [w]) => n + w, 0);

function nextOp(): () => Promise<void> {
  let r = random() * MIX_TOTAL;
  for (const [weight, op] of MIX) {
    if ((r -= weight) < 0) return op;
  }
  return MIX[0][1];
}

// ------------------------------------------------------------------------------- background writers

let etag = '';
let edits = 0;
let extraAgent = false;

async function configEdit(): Promise<void> {
  const n = edits++;
  const headers = { 'If-Match': etag };
  const answer =
    n % 3 === 2
      ? extraAgent
        ? await call('remove agent', '/admin/agents/extra', { method: 'DELETE', headers })
        : await call('add agent', '/admin/agents', { headers, body: { id: 'extra', name: 'Extra' } })
      : await call('rename agent', '/admin/agents/helper', { method: 'PATCH', headers, body: { name: `Helper ${n}` } });
  if (answer) {
    if (n % 3 === 2) extraAgent = !extraAgent;
    etag = answer.headers.get('etag') ?? etag;
  } else {
    // Re-read the revision so one failure does not turn every later edit into a 412.
    etag = (await fetch(`${baseUrl}/admin/config`).then((r) => r.headers.get('etag'))) ?? etag;
  }
}

let noteVersion = 0;

async function memoryWrite(memoryDir: string): Promise<void> {
  const i = noteVersion++ % NOTES;
  const words = Array.from({ length: 40 }, () => pick(WORDS)).join(' ');
  const file = path.join(memoryDir, `note-${i}.md`);
  await fs.writeFile(`${file}.part`, `# Note ${i} (version ${noteVersion})\n\n${words}\n`);
  await fs.rename(`${file}.part`, file);
}

async function reindex(): Promise<void> {
  await call('memory reindex', '/admin/agents/mem/memory/reindex', { method: 'POST' }, (a) =>
    typeof a.body?.indexed === 'number' ? undefined : `unexpected answer ${JSON.stringify(a.body).slice(0, 300)}`,
  );
}

// ---------------------------------------------------------------------------------------- sampling

interface Sample {
  t: number;
  rps: number;
  failures: number;
  latencyP99: number;
  rss: number;
  heap: number;
  fds: number;
  loopP99: number;
}

function metric(text: string, name: string): number {
  const m = new RegExp(`^${name} ([0-9.e+-]+)`, 'm').exec(text);
  return m ? Number(m[1]) : NaN;
}

function procRss(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

async function sample(pid: number, t: number, elapsedMs: number): Promise<Sample> {
  const interval = recorder.take();
  const metrics = await fetch(`${baseUrl}/metrics`).then((r) => r.text());
  return {
    t,
    rps: interval.requests / (elapsedMs / 1000),
    failures: interval.failures,
    latencyP99: percentile(interval.latencies, 0.99),
    rss: procRss(pid),
    heap: metric(metrics, 'clawgate_nodejs_heap_size_used_bytes'),
    fds: readdirSync(`/proc/${pid}/fd`).length,
    loopP99: metric(metrics, 'clawgate_nodejs_eventloop_lag_p99_seconds') * 1000,
  };
}

// ---------------------------------------------------------------------------------------- verdicts

function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

const median = (values: number[]) => percentile(values, 0.5);

/** Least-squares slope of y over x (units of y per unit of x). */
function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

interface Limit {
  /** Growth of the last-third median over the first-third median, relative (0.1 = 10 %). */
  step: number;
  /** ... and at least this much in the resource's own unit (fds: a few sockets come and go). */
  minAbsolute: number;
  /** Slope over the last half, extrapolated to an hour, relative to the first-third median. */
  perHour: number;
}

const LIMITS: Record<'rss' | 'heap' | 'fds' | 'loopP99', Limit> = {
  rss: { step: 0.1, minAbsolute: 8 * 2 ** 20, perHour: 0.5 },
  heap: { step: 0.15, minAbsolute: 8 * 2 ** 20, perHour: 0.5 },
  fds: { step: 0.15, minAbsolute: 8, perHour: 0.5 },
  // A delay that keeps rising means some per-request cost grows with the data (a scan, a re-read).
  loopP99: { step: 1, minAbsolute: 50, perHour: 2 },
};

interface GrowthVerdict {
  resource: string;
  first: number;
  last: number;
  growth: number;
  perHour: number;
  unbounded: boolean;
}

/**
 * "Grows without bound": after the warm-up, both (1) the median of the last third of the samples exceeds
 * the median of the first third by more than `step` (and `minAbsolute`), and (2) the least-squares slope over
 * the last half of the samples extrapolates to more than `perHour` growth per hour. (1) alone would flag a
 * one-off step such as a cache filling up; (2) alone would flag one late swing of the GC sawtooth. A leak
 * shows both: the level moved, and it is still moving at the end.
 */
function growthVerdict(samples: Sample[], resource: keyof typeof LIMITS): GrowthVerdict {
  const judged = samples.filter((s) => s.t * 1000 >= WARMUP_MS && Number.isFinite(s[resource]));
  const third = Math.max(1, Math.floor(judged.length / 3));
  const first = median(judged.slice(0, third).map((s) => s[resource]));
  const last = median(judged.slice(-third).map((s) => s[resource]));
  const half = judged.slice(Math.floor(judged.length / 2));
  const perSecond =
    half.length >= 2
      ? slope(
          half.map((s) => s.t),
          half.map((s) => s[resource]),
        )
      : 0;
  const perHour = first > 0 ? (perSecond * 3600) / first : 0;
  const limit = LIMITS[resource];
  const growth = first > 0 ? last / first - 1 : 0;
  const unbounded = judged.length >= 6 && growth > limit.step && last - first > limit.minAbsolute && perHour > limit.perHour;
  return { resource, first, last, growth, perHour, unbounded };
}

// -------------------------------------------------------------------------------------------- output

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const num = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

function table(samples: Sample[]): string {
  const header = ['t s', 'rps', 'fail', 'lat p99 ms', 'rss MB', 'heap MB', 'fds', 'loop p99 ms'];
  const rows = samples.map((s) => [
    String(Math.round(s.t)),
    num(s.rps),
    String(s.failures),
    num(s.latencyP99),
    mb(s.rss),
    mb(s.heap),
    String(s.fds),
    num(s.loopP99),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i])).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

/** At most ~40 rows: long runs show every n-th sample (and always the last). */
function thinned(samples: Sample[]): Sample[] {
  const every = Math.ceil(samples.length / 40);
  return samples.filter((_, i) => i % every === 0 || i === samples.length - 1);
}

// ---------------------------------------------------------------------------------------------- main

async function main(): Promise<void> {
  if (process.platform !== 'linux') throw new Error('the soak reads /proc/<pid>: Linux only');
  // However the load behaves, the run ends: a hung gateway is killed and reported.
  const watchdog = setTimeout(() => {
    process.stderr.write(`soak: still running ${MINUTES} min + 3 min after the start; giving up\n`);
    running?.child.kill('SIGKILL');
    process.exit(1);
  }, DURATION_MS + 180_000);
  watchdog.unref();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-soak-'));
  const build = await transpileCli();
  const configPath = path.join(dir, 'openclaw.json');
  const stateDir = path.join(dir, 'state');
  const memWorkspace = path.join(dir, 'ws-mem');
  const memoryDir = path.join(memWorkspace, 'memory');
  await fs.mkdir(memoryDir, { recursive: true });
  for (let i = 0; i < NOTES; i++) await memoryWrite(memoryDir);
  await fs.writeFile(
    configPath,
    `// soak run
{
  gateway: { bind: "127.0.0.1" },
  agents: { list: [
    { id: "main", default: true },
    { id: "helper", name: "Helper" },
    { id: "mem", workspace: ${JSON.stringify(memWorkspace)} },
  ] },
  tools: { agentToAgent: { enabled: true, allow: ["main", "helper"] }, sessions: { visibility: "all" } },
  session: { dmScope: "per-peer", agentToAgent: { maxPingPongTurns: 0 } },
  memory: { qmd: { update: { debounceMs: 200 } } },
  channels: {
    http: { enabled: true, accounts: { soak: { token: "${HTTP_TOKEN}" } } },
    a2a: { enabled: true, rateLimitPerMinute: 0, peers: { soak: { token: "${PEER_TOKEN}" } } },
  },
}
`,
  );

  const gateway = await GatewayProcess.start({ cliJs: build.cliJs, configPath, stateDir, home: dir, env: { CLAWGATE_LOG_LEVEL: 'warn' } });
  baseUrl = gateway.url;
  running = gateway;
  process.stdout.write(
    `soak: ${MINUTES} min against pid ${gateway.pid} at ${gateway.url}, ${RPS} req/s target, ${CONCURRENCY} connections, ` +
      `at most ${MAX_REQUESTS} requests, a sample every ${SAMPLE_MS / 1000} s, warm-up ${Math.round(WARMUP_MS / 1000)} s\n`,
  );
  etag = (await fetch(`${baseUrl}/admin/config`).then((r) => r.headers.get('etag'))) ?? '';
  // The memory index and the embedding model are opened by the first use, outside the measured load.
  await reindex();
  recorder.take();

  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const samples: Sample[] = [];
  let lastSampleAt = 0;
  const sampler = setInterval(() => {
    const now = elapsed();
    void sample(gateway.pid, now / 1000, now - lastSampleAt)
      .then((s) => samples.push(s))
      .catch((err: Error) => recorder.failures.push(`sampling: ${err.message}`));
    lastSampleAt = now;
  }, SAMPLE_MS);

  // Pacing: request k may start at k / RPS seconds; the workers take the slots in turn.
  let slot = 0;
  const goOn = () => elapsed() < DURATION_MS && recorder.total < MAX_REQUESTS;
  const worker = async () => {
    while (goOn()) {
      const due = (slot++ * 1000) / RPS - elapsed();
      if (due > 0) await new Promise((r) => setTimeout(r, due));
      if (!goOn()) break;
      await nextOp()();
    }
  };
  const timers = [
    setInterval(() => void configEdit(), 3_000),
    setInterval(() => void memoryWrite(memoryDir).catch((err: Error) => recorder.failures.push(`memory write: ${err.message}`)), 2_000),
    setInterval(() => void reindex(), 30_000),
  ];
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  for (const t of timers) clearInterval(t);
  clearInterval(sampler);
  const now = elapsed();
  // The requests that finished after the last tick, unless that tick was a moment ago (a rate over 0.1 s means nothing).
  if (now - lastSampleAt > 1000) samples.push(await sample(gateway.pid, now / 1000, now - lastSampleAt));

  const stopped = await gateway.stop();
  await build.remove();
  await fs.rm(dir, { recursive: true, force: true });

  process.stdout.write(`\n${table(thinned(samples))}\n\n`);
  const verdicts = (['rss', 'heap', 'fds', 'loopP99'] as const).map((r) => growthVerdict(samples, r));
  const fmt = (r: string, v: number) => (r === 'rss' || r === 'heap' ? `${mb(v)} MB` : r === 'loopP99' ? `${num(v)} ms` : num(v, 0));
  for (const v of verdicts) {
    process.stdout.write(
      `${v.resource.padEnd(8)} first third ${fmt(v.resource, v.first)}, last third ${fmt(v.resource, v.last)} ` +
        `(${(v.growth * 100).toFixed(1)} %), last-half slope ${(v.perHour * 100).toFixed(0)} %/h: ${v.unbounded ? 'GROWS WITHOUT BOUND' : 'bounded'}\n`,
    );
  }
  const seconds = now / 1000;
  process.stdout.write(
    `\n${recorder.total} requests in ${seconds.toFixed(0)} s (${(recorder.total / seconds).toFixed(1)} req/s), ` +
      `${recorder.failures.length} failed; ${edits} config edits; ${noteVersion - NOTES} memory writes; ` +
      `gateway error logs: ${gateway.errorLogCount}; SIGTERM: ${stopped.clean ? 'clean stop' : JSON.stringify(stopped)}\n`,
  );
  for (const f of recorder.failures.slice(0, 20)) process.stdout.write(`  failed: ${f}\n`);
  for (const l of gateway.errorLogs.slice(0, 10)) process.stdout.write(`  error log: ${l}\n`);

  const problems = [
    ...(recorder.failures.length ? [`${recorder.failures.length} request(s) failed`] : []),
    ...(gateway.errorLogCount ? [`the gateway logged ${gateway.errorLogCount} error(s)`] : []),
    ...(stopped.clean ? [] : ['the gateway did not stop cleanly on SIGTERM']),
    ...verdicts.filter((v) => v.unbounded).map((v) => `${v.resource} grows without bound`),
  ];
  process.stdout.write(problems.length ? `\nSOAK FAILED: ${problems.join('; ')}\n` : '\nsoak passed\n');
  process.exitCode = problems.length ? 1 : 0;
}

main().catch((err: Error) => {
  process.stderr.write(`soak: ${err.stack ?? err.message}\n`);
  process.exitCode = 1;
});
