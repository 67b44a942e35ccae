import type { CodePlugin } from '../../plugin-sdk';
import type { CatalogPlugin, PluginCatalog, PluginManifest, PluginsSettings, PluginSource } from '../config';

/** One plugin as the applied config wants it: what to load, or why not. */
export interface DesiredPlugin {
  id: string;
  source: PluginSource;
  state: 'enabled' | 'disabled' | 'refused';
  reason?: string;
  config: Record<string, unknown>;
  manifest?: PluginManifest;
  root?: string;
  entryFile?: string;
  /** The definition of a plugin given in code, or of a bundled one. */
  code?: CodePlugin;
  /** Its configured channels' `channels.<id>` sections, validated by its manifest (secrets resolved). */
  channels: Record<string, Record<string, unknown>>;
}

/**
 * The plugins of an applied config: the catalog's (discovered and checked by the config pipeline), then those given
 * in code that the catalog does not name. An id is the first place's it is found in (docs/plugins.md#the-catalog): a
 * plugin given in code whose id is already taken is left out, and `ignored` says so (the host logs it). One given in
 * code obeys the same switches as one found (`plugins.enabled`, `allow`, `deny`, `entries.<id>.enabled`) and gets its
 * `entries.<id>.config`; having no manifest, it has no schema to check that config against.
 */
export function desiredPlugins(
  catalog: PluginCatalog,
  settings: PluginsSettings | undefined,
  code: readonly CodePlugin[] = [],
): { plugins: DesiredPlugin[]; ignored: string[] } {
  const plugins: DesiredPlugin[] = [...catalog.values()].map((entry) => fromCatalog(entry, code));
  const ignored: string[] = [];
  const seen = new Set(plugins.map((d) => d.id));
  for (const [i, plugin] of code.entries()) {
    const first = catalog.get(plugin.id);
    if (first?.source === 'code' && code.findIndex((p) => p.id === plugin.id) === i) continue;
    if (seen.has(plugin.id)) {
      ignored.push(
        `plugin given in code with id "${plugin.id}" ignored: the id is already taken${first && first.source !== 'code' ? ` (${first.source}${first.root ? ` at ${first.root}` : ''})` : ''}`,
      );
      continue;
    }
    seen.add(plugin.id);
    const { state, reason } = codePluginState(plugin.id, settings);
    plugins.push({
      id: plugin.id,
      source: 'code',
      state,
      reason,
      config: settings?.entries[plugin.id]?.config ?? {},
      code: plugin,
      channels: {},
    });
  }
  return { plugins, ignored };
}

/** The catalog's switches, for a plugin given in code: `deny` and `allow` first, then `enabled`. */
function codePluginState(id: string, settings: PluginsSettings | undefined): { state: 'enabled' | 'disabled'; reason?: string } {
  if (!settings) return { state: 'enabled' };
  if (settings.deny.includes(id)) return { state: 'disabled', reason: 'on plugins.deny' };
  if (settings.allow && !settings.allow.includes(id)) return { state: 'disabled', reason: 'not on plugins.allow' };
  if (!settings.enabled) return { state: 'disabled', reason: 'plugins.enabled is false' };
  if (settings.entries[id]?.enabled === false) return { state: 'disabled', reason: `plugins.entries.${id}.enabled is false` };
  return { state: 'enabled' };
}

function fromCatalog(entry: CatalogPlugin, code: readonly CodePlugin[]): DesiredPlugin {
  return {
    id: entry.id,
    source: entry.source,
    state: entry.state,
    reason: entry.reason,
    config: entry.config,
    manifest: entry.manifest,
    root: entry.root,
    entryFile: entry.entryFile,
    code: entry.source === 'code' ? code.find((p) => p.id === entry.id) : undefined,
    channels: entry.channels ?? {},
  };
}

/** What must be the same for a loaded plugin to stay loaded: where its code comes from and its manifest. */
export function identityOf(plugin: DesiredPlugin): unknown[] {
  return [plugin.source, plugin.entryFile, plugin.code, JSON.stringify(plugin.manifest ?? null)];
}
