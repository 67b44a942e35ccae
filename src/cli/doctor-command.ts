import { promises as fs } from 'node:fs';
import { writeFileAtomic } from '../common/fs/atomic-write';
import { applyJson5Edits, formatConfigIssue, legacyLayoutMigration, loadConfig, locateConfig, parseRoot } from '../modules/config';

/**
 * `clawgate doctor [--fix]` (OpenClaw's command name): finds OpenClaw's legacy layout in the config file (top-level
 * `agent`, `identity`, `routing`, `providers`, `logLevel`) and the retired spellings, says where each setting goes,
 * and with `--fix` moves them there with the comment-keeping writer, after copying the file to `<file>.bak`. Then it
 * validates the result as `config validate` does. Exit 1 while the file does not load.
 */
export async function runDoctor(opts: { fix?: boolean; config?: string; stateDir?: string }): Promise<void> {
  const located = locateConfig({ cliConfig: opts.config, cliStateDir: opts.stateDir, env: process.env });
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const text = await fs.readFile(located.configPath, 'utf8');
  const migration = legacyLayoutMigration(parseRoot(text));
  if (migration.moved.length === 0 && migration.left.length === 0) out(`no legacy settings in ${located.configPath}`);
  for (const line of migration.moved) out(`${opts.fix ? 'moved' : 'to move'}: ${line}`);
  for (const line of migration.left) out(`left: ${line}`);
  if (opts.fix && migration.edits.length > 0) {
    const backup = `${located.configPath}.bak`;
    await fs.copyFile(located.configPath, backup);
    await writeFileAtomic(located.configPath, applyJson5Edits(text, migration.edits));
    out(`rewrote ${located.configPath} (the file before: ${backup})`);
  } else if (migration.edits.length > 0) {
    out('run `clawgate doctor --fix` to make these moves (the file is copied to <file>.bak first)');
  }
  const result = await loadConfig({ configPath: located.configPath, stateDir: located.stateDir, env: process.env });
  for (const w of result.warnings) out(`warning: ${formatConfigIssue(w)}`);
  if (result.ok) {
    out(`ok: ${located.configPath} loads (revision ${result.snapshot.revision})`);
    return;
  }
  for (const e of result.errors) out(`error: ${formatConfigIssue(e)}`);
  out(`${result.errors.length} error${result.errors.length === 1 ? '' : 's'} in ${located.configPath}`);
  process.exitCode = 1;
}
