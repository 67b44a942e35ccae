import * as os from 'node:os';
import { AppError } from '../common/errors/app-error';
import { leaveCliEditNote } from '../modules/config-plan';
import { editConfigFile, formatConfigIssue, loadConfig, locateConfig, type EditPlan } from '../modules/config';

/** Options every verb that edits or reads the config accepts to find it. */
export interface LocateOptions {
  config?: string;
  stateDir?: string;
}

/** Same writer as the admin API; a running gateway picks the change up by hot reload. */
export async function editConfigFromCli(
  opts: LocateOptions & { json?: boolean },
  plan: EditPlan,
  done: string,
  /** With --json: what to print besides configPath and revision. */
  jsonFields: Record<string, unknown> = {},
): Promise<void> {
  const { configPath, stateDir } = locateConfig({ cliConfig: opts.config, cliStateDir: opts.stateDir, env: process.env });
  const current = await loadConfig({ configPath, stateDir, env: process.env });
  try {
    const result = await editConfigFile({
      configPath,
      stateDir,
      env: process.env,
      plan,
      includedPaths: current.ok ? current.snapshot.includedPaths : undefined,
      // So the gateway's config history says who made this edit (source cli) when it applies it.
      beforeWrite: (contentHash) => leaveCliEditNote(stateDir, contentHash, `cli:${cliUser()}`),
    });
    if (opts.json) process.stdout.write(`${JSON.stringify({ ...jsonFields, configPath, revision: result.revision }, null, 2)}\n`);
    else process.stdout.write(`${done} (revision ${result.revision}) in ${configPath}\n`);
    // Only what this edit introduced: the loader's own wording (e.g. a channel without an adapter here).
    const before = new Set((current.warnings ?? []).map(formatConfigIssue));
    for (const w of result.warnings) {
      if (!before.has(formatConfigIssue(w))) process.stderr.write(`warning: ${formatConfigIssue(w)}\n`);
    }
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    process.stderr.write(`clawgate: ${err.detail}\n`);
    for (const e of err.errors ?? []) {
      if (e.severity !== 'warning') process.stderr.write(`  ${formatConfigIssue(e as never)}\n`);
    }
    process.exitCode = 1;
  }
}

function cliUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return 'unknown';
  }
}
