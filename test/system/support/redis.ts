import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from './nginx';
import { requireProgram } from './system-program';

/**
 * A real redis-server for one suite, on a free loopback port, with nothing written to disk (`--save ''`,
 * `--appendonly no`) and its working dir in a temp dir. `stop()` ends it (SIGTERM, SIGKILL after 5 s);
 * `start()` brings it back on the same port, empty (an outage and the recovery after it); `destroy()` stops it
 * and removes the temp dir, once, after the suite.
 */
export interface TestRedis {
  port: number;
  /** `redis://127.0.0.1:<port>` */
  url: string;
  readonly running: boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
  destroy(): Promise<void>;
}

export function findRedisServer(): Promise<string> {
  return requireProgram('redis-server', 'sudo apt-get install -y redis-server  (Debian/Ubuntu; macOS: brew install redis)');
}

export async function startRedis(options: { password?: string } = {}): Promise<TestRedis> {
  const binary = await findRedisServer();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;

  const start = async () => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'];
    if (options.password) args.push('--requirepass', options.password);
    const proc = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    let output = '';
    proc.stdout?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-8192)));
    proc.stderr?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-8192)));
    const deadline = Date.now() + 10_000;
    while (!(await answersPing(port))) {
      if (proc.exitCode !== null) throw new Error(`redis-server exited with ${proc.exitCode}: ${output}`);
      if (Date.now() > deadline) throw new Error(`redis-server did not answer on port ${port} within 10 s: ${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  const stopProcess = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = once(proc, 'exit');
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };

  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    get running() {
      return child !== undefined && child.exitCode === null;
    },
    start,
    stop: stopProcess,
    destroy: async () => {
      await stopProcess();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** True when something on the port answers a RESP PING (or asks for AUTH: it is a Redis server, up). */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d: Buffer) => done(/^(\+PONG|-NOAUTH)/.test(d.toString())));
  });
}
