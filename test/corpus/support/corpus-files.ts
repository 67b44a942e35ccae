import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/** The environment variable that names the corpus directory. */
export const CORPUS_DIR_ENV = 'OPENCLAW_CORPUS_DIR';
const IN_PARENT = path.join('shared', 'openclaw-corpus');

/**
 * The folder of real OpenClaw configs (../shared/openclaw-corpus): `$OPENCLAW_CORPUS_DIR`, else
 * `shared/openclaw-corpus` in the first of `from`'s parent directories that has one. It lives outside the repository
 * (the files are other people's, read where they are, never copied in), so a checkout without it cannot run this
 * tier: that is a failure naming both ways to provide it, never a skip.
 */
export function findCorpusDir(from: string, env: NodeJS.ProcessEnv = process.env): string {
  const named = env[CORPUS_DIR_ENV]?.trim();
  if (named) {
    const dir = path.resolve(named);
    if (!existsSync(path.join(dir, 'check.mjs'))) {
      throw new Error(`${CORPUS_DIR_ENV}=${named} is not the OpenClaw config corpus (no check.mjs in ${dir})`);
    }
    return dir;
  }
  const searched: string[] = [];
  for (let dir = path.dirname(path.resolve(from)); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, IN_PARENT);
    searched.push(candidate);
    if (existsSync(path.join(candidate, 'check.mjs'))) return candidate;
    if (path.dirname(dir) === dir) break;
  }
  throw new Error(
    `the corpus tier needs the OpenClaw config corpus and found none: set ${CORPUS_DIR_ENV} to its directory, ` +
      `or put it at ${IN_PARENT} in a parent directory of the repository (looked in ${searched.join(', ')})`,
  );
}

export interface CorpusFile {
  /** The two-digit number the corpus gives it. */
  id: string;
  name: string;
  text: string;
}

/**
 * The current-format files: every `*.json5` except those check.mjs expects refused (its `refuse` table of legacy and
 * invented layouts), read from check.mjs so the two tiers never disagree about which files must load.
 */
export function currentFormatFiles(dir: string): CorpusFile[] {
  const check = readFileSync(path.join(dir, 'check.mjs'), 'utf8');
  const table = /const refuse = \{([\s\S]*?)\};/.exec(check);
  const refused = new Set([...(table?.[1] ?? '').matchAll(/'(\d{2})'\s*:/g)].map((m) => m[1]));
  if (!refused.size) throw new Error(`cannot read the refuse table of ${path.join(dir, 'check.mjs')}: which files are legacy?`);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json5') && !refused.has(name.slice(0, 2)))
    .sort()
    .map((name) => ({ id: name.slice(0, 2), name, text: readFileSync(path.join(dir, name), 'utf8') }));
}

/**
 * A harmless value for each `${VAR}` the owners left where their secrets were (as check.mjs gives them): `*PORT` a
 * port, anything else `dummy-<name>`.
 */
export function placeholderEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const m of text.matchAll(/\$\{([A-Z_][A-Z0-9_]*)(?::-[^}]*)?\}/g)) {
    env[m[1]] = /PORT$/.test(m[1]) ? '18789' : `dummy-${m[1].toLowerCase()}`;
  }
  return env;
}
