import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { requireProgram } from './system-program';

/** A real nginx started for one test, from a config written to a temp dir; nothing outside it is touched. */
export interface TestNginx {
  url: string;
  port: number;
  dir: string;
  stop(): Promise<void>;
}

/** The nginx binary, or an error naming the install (`.ci/run` installs it when missing). */
export function findNginx(): Promise<string> {
  // /usr/local/nginx/sbin: where a build from source installs it.
  return requireProgram('nginx', 'sudo apt-get install -y nginx  (Debian/Ubuntu; macOS: brew install nginx)', ['/usr/local/nginx/sbin']);
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts `nginx -p <dir> -c <dir>/nginx.conf -e <dir>/error.log -g 'daemon off;'` with `httpBlock` as the
 * body of its http {} block (`{{PORT}}` is replaced by the listen port) and waits until `readyPath` answers.
 */
export async function startNginx(httpBlock: (port: number) => string, readyPath = '/healthz'): Promise<TestNginx> {
  const binary = await findNginx();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-nginx-'));
  const port = await freePort();
  const temp = ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'];
  const conf = [
    'master_process off;', // one process, no privilege switch: the test owns everything it starts
    'worker_processes 1;',
    `pid ${dir}/nginx.pid;`,
    'events { worker_connections 64; }',
    'http {',
    '  access_log off;',
    ...temp.map((t) => `  ${t === 'body' ? 'client_body' : t}_temp_path ${dir}/${t};`),
    httpBlock(port),
    '}',
  ].join('\n');
  await fs.writeFile(path.join(dir, 'nginx.conf'), conf);
  const child: ChildProcess = spawn(
    binary,
    ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log'), '-g', 'daemon off;'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = once(child, 'exit');
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) {
      const log = await fs.readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '');
      throw new Error(`nginx exited with ${child.exitCode}: ${stderr}${log}`);
    }
    const ok = await fetch(`${url}${readyPath}`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`nginx did not answer on ${url} within 10 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    port,
    dir,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
