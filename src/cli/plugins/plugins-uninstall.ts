import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { suggestClosest } from '../../common/text/did-you-mean';
import { loadConfig, locateConfig, planRemovePluginEntry } from '../../modules/config';
import { editConfigFromCli, failCli, type LocateOptions } from '../cli-config-edit';

/**
 * `clawgate plugins uninstall <id>`: removes `plugins.entries.<id>` through the comment-keeping writer (a running
 * gateway unloads the plugin when it applies that), then `<stateDir>/extensions/<id>/` (only the link, for one
 * installed with --link). A plugin found through `plugins.load.paths` is not the state dir's to remove.
 */
export async function runPluginsUninstall(id: string, opts: LocateOptions & { json?: boolean }): Promise<void> {
  const { configPath, stateDir } = locateConfig({ cliConfig: opts.config, cliStateDir: opts.stateDir, env: process.env });
  const extensions = path.join(stateDir, 'extensions');
  const dir = path.join(extensions, id);
  const stat = path.basename(dir) === id ? await fs.lstat(dir).catch(() => undefined) : undefined;
  if (!stat) {
    const installed = (await fs.readdir(extensions).catch(() => [] as string[])).filter((name) => !name.startsWith('.'));
    const loaded = await loadConfig({ configPath, stateDir, env: process.env });
    const elsewhere = loaded.ok ? loaded.snapshot.plugins.get(id) : undefined;
    if (elsewhere && elsewhere.source !== 'extensions') {
      return failCli(
        `plugin "${id}" is not installed in ${extensions}: it is found ${elsewhere.source === 'load-path' ? `through plugins.load.paths (${elsewhere.root})` : `as ${elsewhere.source}`}; remove it from there`,
      );
    }
    const hint = suggestClosest(id, installed);
    const known = installed.length ? `installed: ${installed.join(', ')}` : 'no plugin is installed';
    return failCli(`no plugin "${id}" in ${extensions}${hint ? ` (did you mean "${hint}"?)` : ''}; ${known}`);
  }
  const linked = stat.isSymbolicLink();
  // The config first: a gateway that applies it unloads the plugin before its files go.
  const before = process.exitCode;
  await editConfigFromCli(opts, planRemovePluginEntry(id), `no plugins.entries.${id} left in the config`, {
    jsonFields: { id, dir, linked, removed: true },
  });
  if (process.exitCode !== before && process.exitCode !== 0) return;
  if (linked) await fs.unlink(dir);
  else await fs.rm(dir, { recursive: true, force: true });
  if (!opts.json) process.stdout.write(`uninstalled plugin ${id}: ${linked ? 'removed the link' : 'removed'} ${dir}\n`);
}
