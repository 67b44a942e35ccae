import { promises as fs } from 'node:fs';
import { writeFileAtomic } from '../common/fs/atomic-write';
import {
  applyJson5Edits,
  formatConfigIssue,
  legacyLayoutMigration,
  loadConfig,
  locateConfig,
  parseRoot,
  unknownKeyRemoval,
  type Json5Edit,
} from '../modules/config';

/**
 * `clawgate doctor [--fix]` (OpenClaw's command name): finds OpenClaw's legacy layout in the config file (top-level
 * `agent`, `identity`, `routing`, `providers`, `logLevel`) and the retired spellings, says where each setting goes,
 * and lists the keys neither OpenClaw nor clawgate knows. With `--fix` it moves the legacy settings there and removes
 * the unknown keys (as OpenClaw's doctor does; a likely typo is left to rename) with the comment-keeping writer, after
 * copying the file to `<file>.bak`. Then it validates the result as `config validate` does. Exit 1 while the file
 * does not load.
 */
export async function runDoctor(opts: { fix?: boolean; config?: string; stateDir?: string }): Promise<void> {
  const located = locateConfig({ cliConfig: opts.config, cliStateDir: opts.stateDir, env: process.env });
  const file = located.configPath;
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const load = () => loadConfig({ configPath: file, stateDir: located.stateDir, env: process.env });
  let text = await fs.readFile(file, 'utf8');
  let backedUp = false;
  /** Applies the edits to the file (the first time after copying it to `<file>.bak`). */
  const rewrite = async (edits: Json5Edit[]) => {
    if (!backedUp) await fs.copyFile(file, `${file}.bak`);
    backedUp = true;
    text = applyJson5Edits(text, edits);
    await writeFileAtomic(file, text);
  };

  const migration = legacyLayoutMigration(parseRoot(text));
  if (migration.moved.length === 0 && migration.left.length === 0) out(`no legacy settings in ${file}`);
  for (const line of migration.moved) out(`${opts.fix ? 'moved' : 'to move'}: ${line}`);
  for (const line of migration.left) out(`left: ${line}`);
  if (opts.fix && migration.edits.length > 0) await rewrite(migration.edits);

  let result = await load();
  const unknown = result.ok ? undefined : unknownKeyRemoval(result.errors, file, parseRoot(text));
  for (const path of unknown?.removed ?? [])
    out(`${opts.fix ? 'removed' : 'to remove'}: ${path} (a key neither OpenClaw nor clawgate knows)`);
  for (const line of unknown?.left ?? []) out(`left: ${line}`);
  if (opts.fix && unknown?.edits.length) {
    await rewrite(unknown.edits);
    result = await load();
  }
  if (backedUp) out(`rewrote ${file} (the file before: ${file}.bak)`);
  else if (migration.edits.length > 0 || unknown?.edits.length)
    out('run `clawgate doctor --fix` to make these changes (the file is copied to <file>.bak first)');

  for (const w of result.warnings) out(`warning: ${formatConfigIssue(w)}`);
  if (result.ok) {
    out(`ok: ${file} loads (revision ${result.snapshot.revision})`);
    return;
  }
  for (const e of result.errors) out(`error: ${formatConfigIssue(e)}`);
  out(`${result.errors.length} error${result.errors.length === 1 ? '' : 's'} in ${file}`);
  process.exitCode = 1;
}
