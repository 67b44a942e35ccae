import type { PluginsSettings } from '../config.types';
import type { FoundPlugin } from './discover-plugins';
import type { CatalogPlugin, CatalogState, PluginCatalog } from './plugin-catalog.types';
import { CORE_CHANNELS } from './read-manifest';

/**
 * Whether a found plugin may run, and why not. In this order: `plugins.deny` and `plugins.allow` first
 * (they win over everything else), then a plugin that is not valid or not trusted is refused, then the
 * switches (`plugins.enabled`, `plugins.entries.<id>.enabled`). A plugin in the state dir's `extensions/`
 * runs only once the operator names it (`entries.<id>.enabled: true` or `allow`): being on disk is not
 * consent. One activated by its channel waits until one of its channels is configured. A bundled plugin serving a core
 * channel (the http channel) ignores `plugins.enabled` and `plugins.allow`.
 */
export function pluginState(
  plugin: FoundPlugin,
  settings: PluginsSettings,
  configuredChannels: ReadonlySet<string>,
): { state: CatalogState; reason?: string } {
  const id = plugin.id;
  const entry = settings.entries[id];
  // A bundled plugin serving a core channel (the http channel) is the gateway's own surface: only naming it switches
  // it off (deny, entries.<id>.enabled), not the switches meant for plugins at large.
  const core = plugin.source === 'bundled' && !!plugin.manifest?.contracts.channels.some((c) => CORE_CHANNELS.has(c));
  if (settings.deny.includes(id)) return { state: 'disabled', reason: 'on plugins.deny' };
  if (settings.allow && !settings.allow.includes(id) && !core) return { state: 'disabled', reason: 'not on plugins.allow' };
  if (plugin.problem || !plugin.manifest) return { state: 'refused', reason: plugin.problem ?? 'no manifest' };
  if (!settings.enabled && !core) return { state: 'disabled', reason: 'plugins.enabled is false' };
  if (entry?.enabled === false) return { state: 'disabled', reason: `plugins.entries.${id}.enabled is false` };
  if (plugin.source === 'extensions' && entry?.enabled !== true && !settings.allow?.includes(id)) {
    return {
      state: 'disabled',
      reason: `installed in the state dir's extensions/ but not enabled: set plugins.entries.${id}.enabled to true (clawgate plugins enable ${id})`,
    };
  }
  const channels = plugin.manifest.contracts.channels;
  if (plugin.manifest.activation === 'channel' && !channels.some((c) => configuredChannels.has(c))) {
    return { state: 'disabled', reason: `activated by its channel: none of ${channels.map((c) => `channels.${c}`).join(', ') || '(no channel)'} is configured` };
  }
  return { state: 'enabled' };
}

/**
 * The tools (lower case) the plugins these settings enable declare in `contracts.tools`: what a tool policy may name
 * besides the built-in tools without the "not provided" warning, and what `group:plugins` stands for.
 */
export function enabledPluginTools(
  found: ReadonlyMap<string, FoundPlugin>,
  settings: PluginsSettings,
  configuredChannels: ReadonlySet<string>,
): Set<string> {
  const tools = new Set<string>();
  for (const plugin of found.values()) {
    if (!plugin.manifest || pluginState(plugin, settings, configuredChannels).state !== 'enabled') continue;
    for (const tool of plugin.manifest.contracts.tools) tools.add(tool.toLowerCase());
  }
  return tools;
}

/** The model providers the plugins these settings enable declare in `contracts.providers`. */
export function enabledPluginProviders(
  found: ReadonlyMap<string, FoundPlugin>,
  settings: PluginsSettings,
  configuredChannels: ReadonlySet<string>,
): Set<string> {
  const providers = new Set<string>();
  for (const plugin of found.values()) {
    if (!plugin.manifest || pluginState(plugin, settings, configuredChannels).state !== 'enabled') continue;
    for (const provider of plugin.manifest.contracts.providers) providers.add(provider);
  }
  return providers;
}

/** The MCP servers the plugins these settings enable declare in `contracts.mcpServers`: a tool policy may name them. */
export function enabledPluginMcpServers(
  found: ReadonlyMap<string, FoundPlugin>,
  settings: PluginsSettings,
  configuredChannels: ReadonlySet<string>,
): Set<string> {
  const servers = new Set<string>();
  for (const plugin of found.values()) {
    if (!plugin.manifest || pluginState(plugin, settings, configuredChannels).state !== 'enabled') continue;
    for (const server of plugin.manifest.contracts.mcpServers) servers.add(server);
  }
  return servers;
}

/** A chat channel a found plugin declares: the plugin, and why it does not run when these settings keep it off. */
export interface PluginChannelProvider {
  plugin: string;
  /** Absent when the plugin runs with these settings. */
  off?: string;
}

/** Each channel the found plugins declare in `contracts.channels`, with the plugin that declares it (the first found). */
export function pluginChannelProviders(
  found: ReadonlyMap<string, FoundPlugin>,
  settings: PluginsSettings,
  configuredChannels: ReadonlySet<string>,
): Map<string, PluginChannelProvider> {
  const channels = new Map<string, PluginChannelProvider>();
  for (const plugin of found.values()) {
    if (!plugin.manifest) continue;
    const state = pluginState(plugin, settings, configuredChannels);
    for (const channel of plugin.manifest.contracts.channels) {
      if (channels.has(channel)) continue;
      channels.set(channel, { plugin: plugin.id, ...(state.state === 'enabled' ? {} : { off: state.reason ?? state.state }) });
    }
  }
  return channels;
}

/** The catalog the snapshot carries: every plugin found, in discovery order, with its state and its settings. */
export function buildCatalog(
  found: ReadonlyMap<string, FoundPlugin>,
  settings: PluginsSettings,
  channelSections: ReadonlyMap<string, unknown>,
  providers: ReadonlyMap<string, string>,
): PluginCatalog {
  const configured = new Set(channelSections.keys());
  const catalog = new Map<string, CatalogPlugin>();
  for (const plugin of found.values()) {
    const { state, reason } = pluginState(plugin, settings, configured);
    const channels = Object.fromEntries(
      [...channelSections].filter(([channel]) => providers.get(channel) === plugin.id) as Array<[string, Record<string, unknown>]>,
    );
    catalog.set(plugin.id, {
      id: plugin.id,
      source: plugin.source,
      root: plugin.root,
      ...(plugin.manifestFile ? { manifestFile: plugin.manifestFile } : {}),
      ...(plugin.entryFile ? { entryFile: plugin.entryFile } : {}),
      ...(plugin.manifest ? { manifest: plugin.manifest } : {}),
      state,
      ...(reason ? { reason } : {}),
      config: settings.entries[plugin.id]?.config ?? {},
      channels,
    });
  }
  return catalog;
}
