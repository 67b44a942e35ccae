import { redactSecretFields } from '../common/secrets/redact-document';
import { suggestClosest } from '../common/text/did-you-mean';
import {
  formatConfigIssue,
  loadConfig,
  locateConfig,
  planSetPluginEnabled,
  type CatalogPlugin,
  type RuntimeSnapshot,
} from '../modules/config';
import { editConfigFromCli, type LocateOptions } from './cli-config-edit';

type Options = LocateOptions & { json?: boolean };

/**
 * `clawgate plugins list|info|enable|disable`: the catalog as the gateway would build it from this config
 * (every plugin found, its state and why), read without running any plugin's code; enable and disable edit
 * `plugins.entries.<id>.enabled` with the comment-keeping writer, as `agents add` does.
 */
export async function runPluginsList(opts: Options): Promise<void> {
  const loaded = await loadCatalog(opts);
  if (!loaded) return;
  const plugins = [...loaded.snapshot.plugins.values()];
  if (opts.json) {
    write({ configPath: loaded.configPath, stateDir: loaded.stateDir, plugins: plugins.map(summary) });
    return;
  }
  process.stdout.write(`config ${loaded.configPath}, state dir ${loaded.stateDir}\n`);
  if (!plugins.length) process.stdout.write('no plugins found (plugins.load.paths, <state dir>/extensions/)\n');
  for (const p of plugins) {
    const version = p.manifest?.version ? ` ${p.manifest.version}` : '';
    process.stdout.write(`${p.id}${version}  ${p.state}  (${p.source}: ${p.root ?? 'in code'})\n`);
    if (p.reason) process.stdout.write(`  ${p.reason}\n`);
  }
}

export async function runPluginsInfo(id: string, opts: Options): Promise<void> {
  const loaded = await loadCatalog(opts);
  const plugin = loaded && found(loaded.snapshot, id);
  if (!plugin) return;
  const details = {
    ...summary(plugin),
    description: plugin.manifest?.description ?? null,
    manifestFile: plugin.manifestFile ?? null,
    entryFile: plugin.entryFile ?? null,
    activation: plugin.manifest?.activation ?? null,
    restartRequired: plugin.manifest?.restartRequired ?? false,
    secrets: plugin.manifest?.secrets ?? [],
    configSchema: plugin.manifest?.configSchema ?? null,
    config: redactSecretFields(plugin.config, ['plugins', 'entries', plugin.id, 'config']),
  };
  if (opts.json) {
    write(details);
    return;
  }
  const lines = [
    `${plugin.id}${plugin.manifest?.name ? ` (${plugin.manifest.name})` : ''}: ${plugin.state}${plugin.reason ? ` — ${plugin.reason}` : ''}`,
    plugin.manifest?.description,
    `version: ${plugin.manifest?.version ?? 'not given'}`,
    `found: ${plugin.source}, ${plugin.root ?? 'in code'}`,
    plugin.manifestFile && `manifest: ${plugin.manifestFile}`,
    plugin.entryFile && `entry: ${plugin.entryFile}`,
    plugin.manifest && `contracts: ${contractsText(plugin)}`,
    plugin.manifest &&
      `activation: ${plugin.manifest.activation}${plugin.manifest.restartRequired ? ', config changes need a restart' : ''}`,
    `config: ${JSON.stringify(details.config)}`,
  ];
  for (const line of lines) if (line) process.stdout.write(`${line}\n`);
}

export async function runPluginsEnable(id: string, opts: Options): Promise<void> {
  return setEnabled(id, true, opts);
}

export async function runPluginsDisable(id: string, opts: Options): Promise<void> {
  return setEnabled(id, false, opts);
}

async function setEnabled(id: string, enabled: boolean, opts: Options): Promise<void> {
  const loaded = await loadCatalog(opts);
  const plugin = loaded && found(loaded.snapshot, id);
  if (!plugin) return;
  const settings = loaded.snapshot.config.plugins;
  // The switch is written either way; say when something else keeps the plugin from running.
  if (enabled && settings.deny.includes(id)) warn(`${id} is on plugins.deny, which wins: it stays disabled`);
  else if (enabled && settings.allow && !settings.allow.includes(id)) warn(`${id} is not on plugins.allow, which wins: it stays disabled`);
  else if (enabled && plugin.state === 'refused') warn(`${id} is refused, and stays so until that is fixed: ${plugin.reason ?? ''}`);
  await editConfigFromCli(opts, planSetPluginEnabled(id, enabled), `${enabled ? 'enabled' : 'disabled'} plugin ${id}`, {
    jsonFields: { id, enabled },
  });
}

/** The config loaded from the CLI's options, or undefined after printing why it cannot be. */
async function loadCatalog(opts: Options): Promise<{ snapshot: RuntimeSnapshot; configPath: string; stateDir: string } | undefined> {
  const { configPath, stateDir } = locateConfig({ cliConfig: opts.config, cliStateDir: opts.stateDir, env: process.env });
  const result = await loadConfig({ configPath, stateDir, env: process.env });
  if (!result.ok) {
    for (const e of result.errors) process.stderr.write(`error: ${formatConfigIssue(e)}\n`);
    process.stderr.write(`clawgate: ${configPath} is invalid; plugins are listed only for a config the gateway would load\n`);
    process.exitCode = 1;
    return undefined;
  }
  return { snapshot: result.snapshot, configPath, stateDir };
}

function found(snapshot: RuntimeSnapshot, id: string): CatalogPlugin | undefined {
  const plugin = snapshot.plugins.get(id);
  if (plugin) return plugin;
  const hint = suggestClosest(id, [...snapshot.plugins.keys()]);
  const known = snapshot.plugins.size ? `the plugins found are ${[...snapshot.plugins.keys()].join(', ')}` : 'no plugin was found';
  process.stderr.write(`clawgate: no plugin "${id}"${hint ? ` (did you mean "${hint}"?)` : ''}; ${known}\n`);
  process.exitCode = 1;
  return undefined;
}

function summary(p: CatalogPlugin): Record<string, unknown> {
  return {
    id: p.id,
    name: p.manifest?.name ?? null,
    version: p.manifest?.version ?? null,
    state: p.state,
    reason: p.reason ?? null,
    source: p.source,
    root: p.root ?? null,
    format: p.manifest?.format ?? null,
    contracts: p.manifest?.contracts ?? null,
  };
}

function contractsText(p: CatalogPlugin): string {
  const c = p.manifest!.contracts;
  const parts = (['tools', 'providers', 'channels'] as const).filter((k) => c[k].length).map((k) => `${k} ${c[k].join(', ')}`);
  return parts.join('; ') || 'none';
}

function write(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

function warn(message: string): void {
  process.stderr.write(`warning: ${message}\n`);
}
