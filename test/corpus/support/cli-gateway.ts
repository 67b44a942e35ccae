import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

export interface CliGateway {
  /** `http://127.0.0.1:<port>` (also when the file binds every interface). */
  url: string;
  /** Everything the process wrote so far (stdout and stderr), for failure messages. */
  output(): string;
  /** SIGTERM, then waits for the exit; whether it stopped cleanly (exit 0, or the re-raised SIGTERM of Nest's shutdown hook). */
  stop(): Promise<boolean>;
}

/**
 * `clawgate gateway <args>` as an operator runs it: a real process. Resolves once it prints its listening line;
 * rejects with its output when it exits before that, or after `timeoutMs`.
 */
export async function startCliGateway(cliJs: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<CliGateway> {
  const child: ChildProcess = spawn(process.execPath, [cliJs, 'gateway', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no "listening on" line within ${timeoutMs} ms; output:\n${output}`));
    }, timeoutMs);
    const onData = () => {
      const m = /clawgate listening on http:\/\/(\S+):(\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${m[2]}`);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited with ${code} before listening; output:\n${output}`));
    });
  });
  return {
    url,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode === 0;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
      return code === 0 || signal === 'SIGTERM';
    },
  };
}
