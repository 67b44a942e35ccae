import type { RuntimeSnapshot } from '../config.types';
import { buildConfigJsonSchema } from './export-schema';

type Json = Record<string, unknown>;

let base: Json | undefined;

/**
 * The JSON Schema of openclaw.json with the plugins of `snapshot`'s catalog in it: each plugin's
 * `plugins.entries.<id>.config` shaped by its manifest's `configSchema`, and each channel a plugin provides
 * as `channels.<id>`. What `clawgate config schema` prints for a config and what the console's editor
 * gets; without plugins it is the generated schema (schemas/openclaw.schema.json) itself. A refused plugin
 * adds nothing: its schemas are not trusted.
 */
export function composeConfigSchema(snapshot: Pick<RuntimeSnapshot, 'plugins'> | undefined): Json {
  base ??= buildConfigJsonSchema();
  const schema = structuredClone(base);
  const plugins = [...(snapshot?.plugins.values() ?? [])].filter((p) => p.manifest && p.state !== 'refused');
  if (!plugins.length) return schema;
  const definitions = schema.definitions as Record<string, Json>;
  const entries = ((definitions.PluginsConfig.properties as Record<string, Json>).entries.properties ??= {}) as Json;
  const channels = definitions.ChannelsConfig.properties as Json;
  for (const plugin of plugins) {
    const manifest = plugin.manifest!;
    const about = `${manifest.name ?? plugin.id}${manifest.description ? `: ${manifest.description}` : ''}`;
    entries[plugin.id] = {
      description: `Plugin ${about}`,
      allOf: [{ $ref: '#/definitions/PluginEntryConfig' }, { properties: { config: embeddable(manifest.configSchema) } }],
    };
    for (const [channel, spec] of Object.entries(manifest.channelConfigs)) {
      // A core channel's entry has no schema: `channels.<id>` keeps the core's.
      if (!spec.schema) continue;
      channels[channel] = { description: `Chat channel of the plugin ${plugin.id}.`, ...embeddable(spec.schema) };
    }
  }
  return schema;
}

/** A plugin's schema placed inside another document: the keywords that only mean something at a root go. */
function embeddable(schema: Record<string, unknown>): Json {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}
