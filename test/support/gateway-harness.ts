import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RunningGateway, startGateway } from '../../src/bootstrap';
import type { GatewayOptions } from '../../src/modules/config';
import { WAIT_FLOOR_MS } from './wait-until';

export interface TestGateway extends RunningGateway {
  /** Temp dir holding openclaw.json (`configPath`) and the state dir (`stateDir`). */
  dir: string;
  configPath: string;
  stateDir: string;
  /** Overwrites openclaw.json (the running gateway hot-reloads it). */
  writeConfig(text: string): Promise<void>;
  /** Stops the gateway and removes the temp dir. */
  stop(): Promise<void>;
  /** Stops the gateway (cleanly) and starts a new one on the same config and state dir: what a restart sees. */
  restart(): Promise<TestGateway>;
}

export interface TestGatewayOptions {
  env?: NodeJS.ProcessEnv;
  /** Extra files to create next to openclaw.json (name → content), e.g. included fragments. */
  files?: Record<string, string>;
  /** Runs after the temp dir is laid out and before the gateway boots (e.g. to seed the state dir). */
  beforeStart?: (stateDir: string) => Promise<void>;
  /** The log settings of the command line (`--log-format`, `--log-level`) and a stream in place of stdout. */
  log?: Pick<GatewayOptions, 'logFormat' | 'logLevel' | 'logTarget'>;
  /** Plugins given in code (as `startGateway` used as a library takes them). */
  plugins?: GatewayOptions['plugins'];
}

/**
 * Boots a real gateway (real HTTP on a free loopback port, real files in a temp dir) with the given
 * openclaw.json text. The config's gateway.port is overridden with 0.
 */
export async function startTestGateway(configText: string, options: TestGatewayOptions = {}): Promise<TestGateway> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-test-'));
  const configPath = path.join(dir, 'openclaw.json');
  const stateDir = path.join(dir, 'state');
  await fs.writeFile(configPath, configText);
  for (const [name, content] of Object.entries(options.files ?? {})) {
    await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await fs.writeFile(path.join(dir, name), content);
  }
  await options.beforeStart?.(stateDir);
  return bootIn(dir, options.env, options.log, options.plugins);
}

async function bootIn(
  dir: string,
  env: NodeJS.ProcessEnv = {},
  log: TestGatewayOptions['log'] = {},
  plugins?: GatewayOptions['plugins'],
): Promise<TestGateway> {
  const configPath = path.join(dir, 'openclaw.json');
  const stateDir = path.join(dir, 'state');
  const gateway = await startGateway({ configPath, stateDir, portOverride: 0, env: { HOME: dir, ...env }, ...log, plugins });
  return {
    ...gateway,
    dir,
    configPath,
    stateDir,
    writeConfig: (text: string) => fs.writeFile(configPath, text),
    stop: async () => {
      await gateway.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
    restart: async () => {
      await gateway.close();
      return bootIn(dir, env, log, plugins);
    },
  };
}

/** Polls `check` until it returns a truthy value or `timeoutMs` (at least WAIT_FLOOR_MS) passes, then throws with `what`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = WAIT_FLOOR_MS): Promise<T> {
  const waitMs = Math.max(timeoutMs, WAIT_FLOOR_MS);
  const deadline = Date.now() + waitMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${waitMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Resolves with `work`'s value, or rejects naming `what` when it has not settled within `timeoutMs`: a step that
 * stalls fails as itself, not as the test's overall timeout.
 */
export async function settlesWithin<T>(what: string, work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
