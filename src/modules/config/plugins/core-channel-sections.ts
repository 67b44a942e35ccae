import type { NormalizedConfig } from '../config.types';
import type { ConfigIssue } from '../pipeline/config-issue';
import type { FoundPlugins } from './find-plugins';
import type { PluginCatalog } from './plugin-catalog.types';

/**
 * Where the section of each core channel a bundled plugin serves is: the core's normalized one (always there,
 * `enabled: false` by default), handed to the plugin's channel, which the gateway starts while it is not
 * `enabled: false`. The OpenAI-compatible endpoint's is the key users know from OpenClaw, not a `channels.<id>` one, and
 * is handed over as `{ endpoint }`: its `enabled` switches the endpoint, while the channel itself always runs, so a
 * delivery into an `openai` session is kept in the transcript whether the endpoint is on or not.
 */
const CORE_CHANNEL_SECTIONS: ReadonlyArray<[string, (config: NormalizedConfig) => unknown]> = [
  ['a2a', (config) => config.channels.a2a],
  ['http', (config) => config.channels.http],
  ['openai', (config) => ({ endpoint: config.gateway.http.endpoints.chatCompletions })],
];

/** The core channels the bundled plugins found serve: each one's section and the plugin that serves it. */
export function coreChannelsServedByPlugins(
  found: FoundPlugins,
  config: NormalizedConfig,
): { sections: Map<string, unknown>; providers: Map<string, string> } {
  const sections = new Map<string, unknown>();
  const providers = new Map<string, string>();
  for (const plugin of found.plugins.values()) {
    if (plugin.source !== 'bundled' || !plugin.manifest || plugin.problem) continue;
    for (const [channel, sectionOf] of CORE_CHANNEL_SECTIONS) {
      if (!plugin.manifest.contracts.channels.includes(channel) || providers.has(channel)) continue;
      sections.set(channel, sectionOf(config));
      providers.set(channel, plugin.id);
    }
  }
  return { sections, providers };
}

/**
 * The A2A server (its routes, the Agent Card, outbound A2A) is the core's A2A module, which serves while
 * `channels.a2a.enabled` is true; the channel belongs to the bundled plugin `a2a`. So while no enabled plugin serves
 * `a2a` (`plugins.deny: ["a2a"]`, `plugins.entries.a2a.enabled: false`), the applied config says `enabled: false`, and
 * every part that reads it — the routes (404), the card, outbound A2A, the topology, the banner — agrees. A warning
 * says so when the section asked for the channel. docs/decisions.md#plugins.
 */
export function a2aServedByItsPlugin(
  config: NormalizedConfig,
  catalog: PluginCatalog,
  providers: ReadonlyMap<string, string>,
): { config: NormalizedConfig; warnings: ConfigIssue[] } {
  const a2a = config.channels.a2a;
  const pluginId = providers.get('a2a');
  const plugin = pluginId === undefined ? undefined : catalog.get(pluginId);
  if (!a2a.enabled || plugin?.state === 'enabled') return { config, warnings: [] };
  const why = plugin ? `its plugin ${plugin.id} is ${plugin.state}${plugin.reason ? ` (${plugin.reason})` : ''}` : 'no plugin serves it';
  return {
    config: { ...config, channels: { ...config.channels, a2a: { ...a2a, enabled: false } } },
    warnings: [
      {
        path: 'channels.a2a.enabled',
        message: `the A2A channel is off: ${why}; /a2a and the Agent Card answer 404 until the plugin is enabled again`,
      },
    ],
  };
}
