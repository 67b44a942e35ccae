import { ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { stopChild } from './child-gateway';
import { runBench } from './fill';

/**
 * A bench that compares servers runs each of them in a child process of its own (`<benchFile> serve-<role>`), so
 * the load generator in the parent never takes the server's event loop. The parent tells the child over the IPC
 * channel when a measured window starts and ends; the child answers with its event-loop delay and CPU time over
 * that window only (start-up, warm-up and fills are left out).
 */

/** Sampling interval of the servers' event-loop delay histogram. */
export const LOOP_DELAY_RESOLUTION_MS = 10;

/** Parent → child: start or stop the event-loop delay histogram of the measured window. */
type ToChild = { type: 'window-start' } | { type: 'window-end' };
/** Child → parent. */
type ToParent = { type: 'window-started' } | ({ type: 'loop-delay' } & WindowLoad);

/** Events a server process counts itself (e.g. the queries its database client sends), reported per window. */
const windowCounts = new Map<string, number>();

/** Counts one `name` event in the server process; the parent gets the counts of each measured window. */
export function countInWindow(name: string): void {
  windowCounts.set(name, (windowCounts.get(name) ?? 0) + 1);
}

/** What a server process spent over one measured window. */
export interface WindowLoad {
  /** Event-loop delay beyond the sampling interval, ms. */
  p99: number;
  max: number;
  mean: number;
  /** CPU time of every thread of the process (user + system), µs. */
  cpuMicros: number;
  /** What the process counted with countInWindow during the window, by name. */
  counts: Record<string, number>;
  /** The garbage collector's pauses of the main thread during the window. */
  gc: GcPauses;
}

/** Garbage-collection pauses over a window: how many, their sum and the longest, ms. */
export interface GcPauses {
  count: number;
  totalMs: number;
  maxMs: number;
}

/**
 * Sums the GC pauses V8 reports while it runs. The longest is usually the worst event-loop stall of a busy server,
 * and the sum is time no request moves: a per-message cost the CPU profile spreads over "(garbage collector)".
 */
function watchGcPauses(): { stop(): GcPauses } {
  const pauses: GcPauses = { count: 0, totalMs: 0, maxMs: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      pauses.count++;
      pauses.totalMs += entry.duration;
      pauses.maxMs = Math.max(pauses.maxMs, entry.duration);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop: () => {
      observer.disconnect();
      return pauses;
    },
  };
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
}

/** The event-loop delay of this server process, recorded only between the parent's window-start and window-end. */
function answerLoopDelayWindow(): void {
  let histogram: ReturnType<typeof monitorEventLoopDelay> | undefined;
  let cpuAtStart: NodeJS.CpuUsage | undefined;
  let gc: ReturnType<typeof watchGcPauses> | undefined;
  process.on('message', (message: ToChild) => {
    if (message.type === 'window-start') {
      cpuAtStart = process.cpuUsage();
      gc = watchGcPauses();
      windowCounts.clear();
      histogram = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
      histogram.enable();
      process.send!({ type: 'window-started' } satisfies ToParent);
    } else if (message.type === 'window-end' && histogram && gc) {
      histogram.disable();
      // Every thread of the process (worker threads too), user + system: what the machine paid for the window.
      const cpu = process.cpuUsage(cpuAtStart);
      // The histogram's samples include the sampling interval itself (an idle loop reads 10 ms): report what is beyond it.
      const ms = (ns: number) => Math.max(0, ns / 1e6 - LOOP_DELAY_RESOLUTION_MS);
      process.send!({
        type: 'loop-delay',
        p99: ms(histogram.percentile(99)),
        max: ms(histogram.max),
        mean: ms(histogram.mean),
        cpuMicros: cpu.user + cpu.system,
        counts: Object.fromEntries(windowCounts),
        gc: gc.stop(),
      } satisfies ToParent);
      histogram = undefined;
      gc = undefined;
    }
  });
}

/**
 * The entry point of a bench file that is both the load generator and its servers: run as `serve-<role>` it
 * starts that role's server (each `serve` resolves with the URL it serves at), prints `READY <url>` and answers
 * the window messages; run without, it runs `main`.
 */
export function serveOrRun(serves: Record<string, () => Promise<string>>, main: () => Promise<unknown>): void {
  const mode = process.argv[2];
  if (!mode?.startsWith('serve-')) return runBench(main);
  const serve = serves[mode.slice('serve-'.length)];
  if (!serve) throw new Error(`unknown server role in ${mode}`);
  answerLoopDelayWindow();
  serve().then(
    (url) => {
      // Ended by a signal, a process writes no CPU profile (BENCH_PROFILE): a server with no shutdown of its own exits.
      if (process.listenerCount('SIGTERM') === 0) process.on('SIGTERM', () => process.exit(0));
      process.stdout.write(`READY ${url}\n`);
    },
    (err: Error) => {
      console.error(err);
      process.exit(1);
    },
  );
}

/**
 * The servers' log level: silent unless BENCH_LOG_LEVEL names one (e.g. `info`, to measure what the per-message log
 * lines cost; they go to a pipe this process drains).
 */
export function benchLogLevel(): string {
  return process.env.BENCH_LOG_LEVEL ?? 'silent';
}

/** Starts `<benchFile> serve-<role>` and resolves once it serves. BENCH_PROFILE: a directory for V8 CPU profiles. */
export function spawnServer(benchFile: string, role: string): Promise<ServerProcess> {
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE)}`] : [];
  const child = spawn(process.execPath, [...profile, '-r', require.resolve('./ts-register.js'), benchFile, `serve-${role}`], {
    cwd: path.resolve(__dirname, '../..'),
    env: { ...process.env, CLAWGATE_LOG_LEVEL: benchLogLevel() },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  // A bench that dies on an error does not leave its server running.
  const orphaned = () => child.kill('SIGTERM');
  process.once('exit', orphaned);
  child.once('exit', () => process.off('exit', orphaned));
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`${role} server exited (${code}) before it was ready`)));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /READY (\S+)/.exec(out);
      if (!m) return;
      // From here on the server's stdout is its log lines (BENCH_LOG_LEVEL): read and dropped, not kept.
      out = '';
      child.stdout!.removeAllListeners('data');
      child.stdout!.resume();
      resolve({ child, url: m[1] });
    });
  });
}

/** Runs `job` with a server of `role`, which is stopped afterwards whatever happens. */
export async function withServer<T>(benchFile: string, role: string, job: (server: ServerProcess) => Promise<T>): Promise<T> {
  const server = await spawnServer(benchFile, role);
  try {
    return await job(server);
  } finally {
    await stopChild(server.child);
  }
}

/** The measured window starts now in the server: resolves once its histogram runs. */
export async function startWindow(child: ChildProcess): Promise<void> {
  await ask(child, { type: 'window-start' }, 'window-started');
}

/** The measured window is over: what the server spent since startWindow. */
export async function endWindow(child: ChildProcess): Promise<WindowLoad> {
  const { type: _type, ...load } = await ask(child, { type: 'window-end' }, 'loop-delay');
  return load;
}

/** `GC pauses: n, … ms in all (…% of the window), longest … ms`, for a window of `windowMs`. */
export function describeGcPauses(gc: GcPauses, windowMs: number): string {
  return (
    `GC pauses: ${gc.count}, ${gc.totalMs.toFixed(0)} ms in all (${((100 * gc.totalMs) / Math.max(1, windowMs)).toFixed(1)}% of the window), ` +
    `longest ${gc.maxMs.toFixed(1)} ms`
  );
}

/** `event-loop delay in the window: p99 …, max …`, as every server bench prints it. */
export function describeLoopDelay(load: Pick<WindowLoad, 'p99' | 'max'>): string {
  return (
    `event-loop delay in the window: p99 ${load.p99.toFixed(1)} ms, max ${load.max.toFixed(1)} ms ` +
    `(beyond the ${LOOP_DELAY_RESOLUTION_MS} ms sampling interval)`
  );
}

/** Sends `message` to the child and waits for its answer of type `answer`. */
function ask<T extends ToParent['type']>(child: ChildProcess, message: ToChild, answer: T): Promise<Extract<ToParent, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: ToParent) => {
      if (m.type !== answer) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(m as Extract<ToParent, { type: T }>);
    };
    const onExit = (code: number | null) => reject(new Error(`server exited (${code}) while waiting for ${answer}`));
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send(message);
  });
}
