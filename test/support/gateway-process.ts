import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import * as path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** A gateway in a process of its own: what `kill -9` and a restart are tried on. */
export interface GatewayProcess {
  child: ChildProcess;
  url: string;
}

/**
 * Starts `clawgate gateway` from the sources (ts-node, transpile only) on a free port and resolves once it logs its
 * "listening on" line; rejects with its stderr when it exits first or does not listen within 90 s.
 */
export async function startGatewayProcess(configPath: string, stateDir: string, home: string): Promise<GatewayProcess> {
  const child = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', 'src/cli.ts', 'gateway', '--config', configPath, '--state-dir', stateDir, '--port', '0'],
    { cwd: REPO_ROOT, env: { PATH: process.env.PATH, HOME: home, CLAWGATE_LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening on" line within 90 s; stderr:\n${stderr}`)), 90_000);
    child.once('exit', (code) => reject(new Error(`gateway exited with ${code} before listening; stderr:\n${stderr}`)));
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(stdout);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  return { child, url };
}

/** SIGKILL: no shutdown hook runs, nothing is flushed on the way out. Resolves once the process is gone. */
export async function killHard(gateway: GatewayProcess | undefined): Promise<void> {
  if (!gateway || gateway.child.exitCode !== null || gateway.child.signalCode !== null) return;
  gateway.child.kill('SIGKILL');
  await once(gateway.child, 'exit');
}
