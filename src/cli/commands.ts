import { StateDirInUseError } from '../common/fs/state-dir-lock';
import { PostgresUnavailableError } from '../common/storage/postgres-errors';
import { LogSettingsError } from '../common/logging/log-settings';
import { promises as fs } from 'node:fs';
import {
  buildConfigJsonSchema,
  composeConfigSchema,
  ConfigLoadError,
  formatConfigIssue,
  loadConfig,
  locateConfig,
} from '../modules/config';
import { ClusterRedisUnreachableError } from '../modules/cluster';

/** sysexits EX_CONFIG: the gateway refuses to start on an invalid config. */
export const EXIT_CONFIG = 78;
/** sysexits EX_TEMPFAIL: another gateway holds the state dir; starting again once it has stopped will work. */
export const EXIT_STATE_DIR_IN_USE = 75;
/** sysexits EX_UNAVAILABLE: a service the gateway needs (its PostgreSQL, or the cluster's Redis) cannot be reached. */
export const EXIT_SERVICE_UNAVAILABLE = 69;
/** sysexits EX_TEMPFAIL too: another program listens on the address; once it stops (or on another port) it will work. */
export const EXIT_ADDRESS_IN_USE = 75;

export async function runGateway(opts: {
  config?: string;
  stateDir?: string;
  port?: number;
  logFormat?: string;
  logLevel?: string;
}): Promise<void> {
  const located = locateConfig({ cliConfig: opts.config, cliStateDir: opts.stateDir, env: process.env });
  // Loaded lazily: `config validate` should not pay for booting Nest.
  const { startGateway } = await import('../bootstrap');
  try {
    const gateway = await startGateway({
      configPath: located.configPath,
      stateDir: located.stateDir,
      portOverride: opts.port,
      env: process.env,
      logFormat: opts.logFormat,
      logLevel: opts.logLevel,
    });
    // The banner says it, unless the log level hides it.
    if (!gateway.bannerLogged) {
      process.stdout.write(`clawgate listening on ${gateway.url} (config ${located.configPath}, admin docs ${gateway.url}/docs)\n`);
    }
  } catch (err) {
    if (err instanceof ConfigLoadError) {
      process.stderr.write(`clawgate: invalid config ${located.configPath}; not starting:\n`);
      for (const issue of err.issues) process.stderr.write(`  ${formatConfigIssue(issue)}\n`);
      process.exit(EXIT_CONFIG);
    }
    if (err instanceof LogSettingsError) {
      process.stderr.write(`clawgate: ${err.message}; not starting\n`);
      process.exit(EXIT_CONFIG);
    }
    if (err instanceof StateDirInUseError) {
      process.stderr.write(`clawgate: ${err.detail}; not starting\n`);
      process.exit(EXIT_STATE_DIR_IN_USE);
    }
    if (err instanceof PostgresUnavailableError || err instanceof ClusterRedisUnreachableError) {
      process.stderr.write(`clawgate: ${err.message}; not starting\n`);
      process.exit(EXIT_SERVICE_UNAVAILABLE);
    }
    const address = addressInUse(err);
    if (address) {
      process.stderr.write(
        `clawgate: ${address} is already in use (another gateway or program listens there); ` +
          `start with ${portOption()} (0 picks a free one) or change gateway.port in ${located.configPath}; not starting\n`,
      );
      process.exit(EXIT_ADDRESS_IN_USE);
    }
    throw err;
  }
}

/**
 * The port option as the user passes it: under `npm start` or `npm run <script>` (npm says which in npm_command and
 * npm_lifecycle_event; `npx` is npm_command "exec" and takes the option as it is) the gateway's options follow `--`,
 * since `npm start --port 0` would be an option of npm's.
 */
function portOption(): string {
  const script = process.env.npm_lifecycle_event;
  const command = process.env.npm_command;
  if (!script || (command !== 'start' && command !== 'run-script')) return '--port <n>';
  return `\`npm ${command === 'start' ? 'start' : `run ${script}`} -- --port <n>\``;
}

/** `host:port` of a listen that failed with EADDRINUSE (Node's error carries both), else undefined. */
function addressInUse(err: unknown): string | undefined {
  const e = err as NodeJS.ErrnoException & { address?: string; port?: number };
  if (e?.code !== 'EADDRINUSE') return undefined;
  const host = e.address?.includes(':') ? `[${e.address}]` : (e.address ?? 'the address');
  return e.port === undefined ? host : `${host}:${e.port}`;
}

export async function runConfigValidate(file: string | undefined, opts: { stateDir?: string }): Promise<void> {
  const located = locateConfig({ cliConfig: file, cliStateDir: opts.stateDir, env: process.env });
  const result = await loadConfig({ configPath: located.configPath, stateDir: located.stateDir, env: process.env });
  for (const w of result.warnings) process.stdout.write(`warning: ${formatConfigIssue(w)}\n`);
  if (result.ok) {
    // The revision depends on the state dir (agents' default workspaces live there) and on this shell's ${VAR}s.
    process.stdout.write(`ok (revision ${result.snapshot.revision}; config ${located.configPath}, state dir ${located.stateDir})\n`);
    return;
  }
  for (const e of result.errors) process.stdout.write(`error: ${formatConfigIssue(e)}\n`);
  process.stdout.write(`${result.errors.length} error${result.errors.length === 1 ? '' : 's'} in ${located.configPath}\n`);
  process.exitCode = 1;
}

/**
 * The JSON Schema of openclaw.json. With a config that loads, the plugins it finds are in it (their config
 * and channel schemas); without one (or `--no-plugins`), the generated schema alone.
 */
export async function runConfigSchema(opts: { config?: string; stateDir?: string; plugins?: boolean }): Promise<void> {
  let schema = buildConfigJsonSchema();
  if (opts.plugins !== false) {
    const located = locateConfig({ cliConfig: opts.config, cliStateDir: opts.stateDir, env: process.env });
    const exists = await fs.stat(located.configPath).then(
      () => true,
      () => false,
    );
    if (exists) {
      const result = await loadConfig({ configPath: located.configPath, stateDir: located.stateDir, env: process.env });
      if (result.ok) schema = composeConfigSchema(result.snapshot);
      else process.stderr.write(`warning: ${located.configPath} is invalid; the schema has no plugins in it\n`);
    }
  }
  process.stdout.write(`${JSON.stringify(schema, null, 2)}\n`);
}
