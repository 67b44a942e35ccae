import * as path from 'node:path';
import { formatConfigIssue, loadConfig, locateConfig, type CatalogPlugin, type ConfigIssue } from '../../modules/config';
import type { LocateOptions } from '../cli-config-edit';
import { INSTALL_RECORD_FILE, readInstallRecord } from './install-record';

export interface DoctorProblem {
  /** The plugin it is about; absent for a problem of the `plugins` settings (a load path, an entry). */
  plugin?: string;
  problem: string;
  fix: string;
}

/**
 * `clawgate plugins doctor`: every plugin this config finds, checked as the gateway checks it before running any
 * of its code (manifest, entry, trust: owner, group/world-writable, symlink escape), plus what `plugins install`
 * recorded. Prints each problem with its fix; exit code 1 when there is any. Runs no plugin code.
 */
export async function runPluginsDoctor(opts: LocateOptions & { json?: boolean }): Promise<void> {
  const { configPath, stateDir } = locateConfig({ cliConfig: opts.config, cliStateDir: opts.stateDir, env: process.env });
  const loaded = await loadConfig({ configPath, stateDir, env: process.env });
  const problems: DoctorProblem[] = [];
  let plugins: CatalogPlugin[] = [];
  if (!loaded.ok) {
    for (const e of loaded.errors)
      problems.push({ problem: formatConfigIssue(e), fix: `fix ${configPath} (clawgate config validate shows each error)` });
  } else {
    plugins = [...loaded.snapshot.plugins.values()];
    for (const plugin of plugins) problems.push(...(await pluginProblems(plugin)));
    problems.push(...loaded.snapshot.warnings.filter(isSettingsProblem).map(settingsProblem));
  }
  if (opts.json) {
    const states = plugins.map((p) => ({ id: p.id, state: p.state, source: p.source, root: p.root ?? null }));
    process.stdout.write(`${JSON.stringify({ configPath, stateDir, ok: problems.length === 0, plugins: states, problems }, null, 2)}\n`);
  } else {
    process.stdout.write(`config ${configPath}, state dir ${stateDir}: ${plugins.length} plugin${plugins.length === 1 ? '' : 's'} found\n`);
    for (const p of problems) process.stdout.write(`${p.plugin ? `${p.plugin}: ` : ''}${p.problem}\n  fix: ${p.fix}\n`);
    if (!problems.length) process.stdout.write('no problems\n');
  }
  if (problems.length) process.exitCode = 1;
}

async function pluginProblems(plugin: CatalogPlugin): Promise<DoctorProblem[]> {
  const out: DoctorProblem[] = [];
  if (plugin.state === 'refused' && plugin.reason) out.push({ plugin: plugin.id, problem: plugin.reason, fix: fixFor(plugin.reason) });
  if (plugin.source === 'extensions' && plugin.root && plugin.manifest) {
    const record = await readInstallRecord(plugin.root);
    const version = plugin.manifest.version ?? null;
    if (record && record.version !== version) {
      out.push({
        plugin: plugin.id,
        problem: `its files changed since it was installed: version ${version ?? '(none)'} on disk, ${record.version ?? '(none)'} in ${path.join(plugin.root, INSTALL_RECORD_FILE)}`,
        fix: `reinstall it: clawgate plugins uninstall ${plugin.id} && clawgate plugins install ${record.source.spec}`,
      });
    }
  }
  return out;
}

/** The `plugins` warnings that are not a refused plugin's (those are reported with the plugin). */
function isSettingsProblem(w: ConfigIssue): boolean {
  return (w.path === 'plugins' || w.path.startsWith('plugins.')) && !/^plugin "[^"]+" \(.*\) is refused: /.test(w.message);
}

function settingsProblem(w: ConfigIssue): DoctorProblem {
  const problem = formatConfigIssue(w);
  if (w.path.startsWith('plugins.load.paths')) return { problem, fix: 'create that directory, or remove it from plugins.load.paths' };
  if (w.path.startsWith('plugins.entries.')) return { problem, fix: `install the plugin, or remove ${w.path} from the config` };
  if (w.message.includes('was found first'))
    return { problem, fix: 'keep one plugin with that id: remove the other, or clawgate plugins uninstall it' };
  return { problem, fix: 'see docs/plugins.md#problems-and-what-the-gateway-does' };
}

/** The fix for a refusal, by what the catalog's reason says (plugin-trust.ts, read-manifest.ts, discover-plugins.ts). */
function fixFor(reason: string): string {
  const writable = /its (?:directory|entry) (.+) is writable by/.exec(reason);
  if (writable) return `chmod go-w ${quote(writable[1])}`;
  const owner = /its (?:directory|entry) (.+) belongs to uid \d+/.exec(reason);
  if (owner) return `chown the files to the gateway's user (chown -R $(id -un) ${quote(owner[1])}), or reinstall the plugin as that user`;
  if (reason.includes('through a symlink')) return "make the entry a file inside the plugin's directory, not a symlink out of it";
  if (/its entry .* does not exist/.test(reason))
    return "build the plugin so that its entry exists, or point the manifest's entry at its module";
  if (reason.startsWith('no clawgate.plugin.json'))
    return 'add a clawgate.plugin.json with at least id and configSchema (docs/plugins.md#what-a-plugin-ships)';
  if (reason.includes('does not match its directory')) return "rename the directory to the manifest's id, or reinstall the plugin";
  if (reason.includes("is outside the plugin's directory")) return "set the manifest's entry to a file inside the plugin's directory";
  if (reason.includes('is provided by the plugin')) return 'keep one provider of the channel: put the other plugin on plugins.deny';
  return 'correct the manifest field the message names (docs/plugins.md#what-a-plugin-ships)';
}

function quote(file: string): string {
  return /^[\w@%+=:,./-]+$/.test(file) ? file : `'${file.replace(/'/g, `'\\''`)}'`;
}
