import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import { AppError } from '../common/errors/app-error';
import { leaveCliEditNote } from '../modules/config-plan';
import { editConfigFile, formatConfigIssue, loadConfig, locateConfig, type EditPlan, type LoadResult } from '../modules/config';
import { GatewayWatch } from './gateway-applied';

/** Options every verb that edits or reads the config accepts to find it. */
export interface LocateOptions {
  config?: string;
  stateDir?: string;
}

export interface CliEditOptions {
  /** With --json: what to print besides configPath, stateDir and revision. */
  jsonFields?: Record<string, unknown>;
  /** May stop the edit with a plain reason before the writer runs (e.g. "agent coding already exists"). */
  refuse?: (current: LoadResult) => string | undefined;
}

/**
 * Same writer as the admin API; a running gateway picks the change up by hot reload. Every outcome names the
 * config and the state dir used (the CLI's defaults are not `npm start`'s), and an edit a running gateway
 * applies names the revision it applied.
 */
export async function editConfigFromCli(
  opts: LocateOptions & { json?: boolean },
  plan: EditPlan,
  done: string,
  options: CliEditOptions = {},
): Promise<void> {
  const { configPath, stateDir } = locateConfig({ cliConfig: opts.config, cliStateDir: opts.stateDir, env: process.env });
  const where = `config ${configPath}, state dir ${stateDir}`;
  const current = await loadConfig({ configPath, stateDir, env: process.env });
  const refusal = options.refuse?.(current);
  if (refusal) return failCli(`${refusal} (${where}); nothing written`);
  try {
    const currentText = await fs.readFile(configPath, 'utf8');
    const watch = await GatewayWatch.before(stateDir, !current.ok || current.snapshot.config.gateway.state.backend === 'sqlite');
    let contentHash = '';
    const result = await editConfigFile({
      configPath,
      stateDir,
      env: process.env,
      plan,
      currentText,
      includedPaths: current.ok ? current.snapshot.includedPaths : undefined,
      // So the gateway's config history says who made this edit (source cli) when it applies it.
      beforeWrite: (hash) => {
        contentHash = hash;
        return leaveCliEditNote(stateDir, hash, `cli:${cliUser()}`);
      },
    });
    if (opts.json) {
      process.stdout.write(`${JSON.stringify({ ...options.jsonFields, configPath, stateDir, revision: result.revision }, null, 2)}\n`);
    } else {
      process.stdout.write(`${done} (revision ${result.revision}; ${where})\n`);
    }
    // Only what this edit introduced: the loader's own wording (e.g. a channel without an adapter here).
    const before = new Set((current.warnings ?? []).map(formatConfigIssue));
    for (const w of result.warnings) {
      if (!before.has(formatConfigIssue(w))) process.stderr.write(`warning: ${formatConfigIssue(w)}\n`);
    }
    // An edit that changed nothing is not applied, so there is nothing to wait for.
    if (result.text !== currentText) await watch.report(contentHash);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const errors = (err.errors ?? []).filter((e) => e.severity !== 'warning');
    // The detail of an invalid result quotes its first errors: list them once, under a header of our own.
    if (errors.length) {
      process.stderr.write(`clawgate: the edit would make the config invalid (${where}); nothing written:\n`);
      for (const e of errors) process.stderr.write(`  ${formatConfigIssue(e as never)}\n`);
    } else {
      process.stderr.write(`clawgate: ${err.detail} (${where})\n`);
    }
    process.exitCode = 1;
  }
}

/** A refusal of the CLI's own: one line on stderr, exit code 1. */
export function failCli(message: string): Promise<void> {
  process.stderr.write(`clawgate: ${message}\n`);
  process.exitCode = 1;
  return Promise.resolve();
}

function cliUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return 'unknown';
  }
}
