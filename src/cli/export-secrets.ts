import * as path from 'node:path';
import { registerSecretSource } from '../common/secrets/secret-mask';
import { configuredSecretValues } from '../modules/admin';
import { formatConfigIssue, loadConfig, type LoadResult } from '../modules/config';

/** Where the gateway keeps the document it last served (config.store.ts). */
const LAST_GOOD = 'openclaw.last-good.json';

/**
 * Teaches the shared secret masker the secrets `clawgate sessions export` must mask, as the gateway's SecretShield
 * does for its export endpoint, so both write the same file (docs/sessions.md). They are the secrets of the config the
 * command locates, loaded as the gateway loads it (`${VAR}` from this shell's environment); when that config does not
 * load (with `--state-dir` alone it is `<stateDir>/openclaw.json`, often absent), those of the state dir's last-good
 * copy, the document the gateway on that state dir last served. Neither: the answer is why, and the export must not
 * be written — unmasked is not a fallback.
 */
export async function learnExportSecrets(located: { configPath: string; stateDir: string }): Promise<{ problem?: string }> {
  const config = await loadConfig({ configPath: located.configPath, stateDir: located.stateDir, env: process.env });
  if (config.ok) return learn(config);
  const lastGoodPath = path.join(located.stateDir, LAST_GOOD);
  const lastGood = await loadConfig({ configPath: lastGoodPath, stateDir: located.stateDir, env: process.env });
  if (lastGood.ok) return learn(lastGood);
  return {
    problem:
      `cannot tell which secrets to mask: ${firstError(config, located.configPath)}; ${firstError(lastGood, lastGoodPath)} ` +
      '(pass --config <the gateway’s openclaw.json>, or --remote to export from the running gateway)',
  };
}

function learn(result: Extract<LoadResult, { ok: true }>): { problem?: string } {
  const values = configuredSecretValues(result.snapshot, process.env);
  registerSecretSource(() => values);
  return {};
}

/** The first error of a failed load, naming the file (the issue's own, else the one loaded). */
function firstError(result: Extract<LoadResult, { ok: false }>, file: string): string {
  const issue = result.errors[0] ?? { path: '', message: 'not loadable' };
  return formatConfigIssue({ ...issue, file: issue.file ?? file });
}
