import { ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';

/** A gateway a bench started in a child process, filled and serving. */
export interface FilledGateway {
  child: ChildProcess;
  url: string;
  fillSeconds: number;
}

/**
 * Runs `benchFile serve` in a child process (so the client's event loop never takes the gateway's), echoes
 * the child's `PROGRESS …` lines, and resolves once it prints `FILLED <seconds> <url>`: its store is filled
 * and it serves at `url`. `env` is added to this process's environment.
 */
export function spawnFilledGateway(benchFile: string, env: NodeJS.ProcessEnv = {}): Promise<FilledGateway> {
  const child = spawn(process.execPath, ['--max-old-space-size=8192', '-r', require.resolve('./ts-register.js'), benchFile, 'serve'], {
    cwd: path.resolve(__dirname, '../..'),
    env: { ...process.env, CLAWGATE_LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`gateway exited (${code}) before it was ready`)));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      let nl: number;
      while ((nl = out.indexOf('\n')) >= 0) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        if (line.startsWith('PROGRESS ')) console.log(`  ${line.slice('PROGRESS '.length)}`);
        const m = /^FILLED (\S+) (\S+)/.exec(line);
        if (m) resolve({ child, url: m[2], fillSeconds: Number(m[1]) });
      }
    });
  });
}

/** SIGTERM to the child (its handler closes the gateway and removes its temp dir); resolves once it exited. */
export async function stopChild(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}
