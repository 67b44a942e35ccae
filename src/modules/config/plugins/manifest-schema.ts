import { PLUGIN_ID_PATTERN } from '../schema/plugins.schema';

const stringList = { type: 'array', items: { type: 'string', minLength: 1 } };

const setupField = {
  type: 'object',
  required: ['flag', 'key'],
  additionalProperties: false,
  properties: {
    flag: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' },
    key: { type: 'string', minLength: 1 },
    description: { type: 'string' },
    required: { type: 'boolean' },
    sensitive: { type: 'boolean' },
  },
};

/**
 * The fields of a manifest and their types (docs/plugins.md#what-a-plugin-ships). `clawgate.plugin.json` is
 * closed: a key not listed is a mistake and named as one. An `openclaw.plugin.json` is read for the same
 * fields and may carry OpenClaw's others (`uiHints`, `kind`, `skills`, …), which clawgate leaves unread.
 */
export function manifestSchema(format: 'clawgate' | 'openclaw'): Record<string, unknown> {
  const closed = format === 'clawgate';
  return {
    type: 'object',
    required: ['id', 'configSchema'],
    additionalProperties: !closed,
    properties: {
      $schema: { type: 'string' },
      id: { type: 'string', pattern: PLUGIN_ID_PATTERN.source },
      name: { type: 'string' },
      description: { type: 'string' },
      version: { type: 'string' },
      configSchema: { type: 'object' },
      entry: { type: 'string', minLength: 1 },
      contracts: {
        type: 'object',
        additionalProperties: !closed,
        properties: { tools: stringList, providers: stringList, channels: stringList, mcpServers: stringList },
      },
      channelConfigs: {
        type: 'object',
        additionalProperties: {
          // `schema` is required of every channel but a core one (read-manifest.ts says which, and why).
          type: 'object',
          additionalProperties: !closed,
          properties: { schema: { type: 'object' }, secrets: stringList, secretEnv: stringList, setup: { type: 'array', items: setupField } },
        },
      },
      // OpenClaw's manifests describe activation in their own way; only clawgate's two words are read.
      activation: closed ? { enum: ['startup', 'channel'] } : {},
      secrets: stringList,
      restartRequired: { type: 'boolean' },
      // OpenClaw's manifests list their channels and providers at the top level.
      ...(closed ? {} : { channels: stringList, providers: stringList }),
    },
  };
}
