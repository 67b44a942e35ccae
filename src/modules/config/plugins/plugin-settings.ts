import { isSecretConfigPath } from '../../../common/secrets/secret-paths';
import { suggestClosest } from '../../../common/text/did-you-mean';
import type { PluginsSettings } from '../config.types';
import { ConfigIssue, toDottedPath } from '../pipeline/config-issue';
import type { ConfigValueQuoter } from '../pipeline/config-value-quoter';
import { pluginState } from './build-catalog';
import { channelAccessProblems } from './channel-common-schema';
import type { FoundPlugin } from './discover-plugins';
import { compileSchema, pluginAjv, type ValidateFunction } from './plugin-ajv';
import { schemaProblems, type SchemaIssueOptions, type Segment } from './schema-issues';

const ajv = pluginAjv();
/** Compiled schemas by their text: a reload with unchanged manifests compiles nothing. */
const compiled = new Map<string, ValidateFunction | undefined>();

function validatorOf(schema: Record<string, unknown>): ValidateFunction | undefined {
  const key = JSON.stringify(schema);
  if (!compiled.has(key)) {
    const result = compileSchema(ajv, schema);
    compiled.set(key, 'validate' in result ? result.validate : undefined);
  }
  return compiled.get(key);
}

/**
 * Checks each plugin's settings against its manifest, as strictly as the core's own keys: its
 * `plugins.entries.<id>.config` against `configSchema`, and each `channels.<id>` section it provides against
 * the channel's schema. Messages carry the dotted path and show values through the config's quoter (never a
 * secret's). An entry naming no plugin found is a warning (a config copied from another machine still loads),
 * with did-you-mean among the plugins that are.
 */
export function checkPluginSettings(
  found: ReadonlyMap<string, FoundPlugin>,
  settings: PluginsSettings,
  channelSections: ReadonlyMap<string, unknown>,
  providers: ReadonlyMap<string, string>,
  quoter: ConfigValueQuoter,
): { errors: ConfigIssue[]; warnings: ConfigIssue[] } {
  const errors: ConfigIssue[] = [];
  const warnings: ConfigIssue[] = [];
  const options = { quote: (path: Segment[], value: string) => quoter.quote(path, value), isSecret: isSecretConfigPath };

  for (const [id, entry] of Object.entries(settings.entries)) {
    const plugin = found.get(id);
    if (!plugin) {
      const hint = suggestClosest(id, [...found.keys()]);
      warnings.push({
        path: toDottedPath(['plugins', 'entries', id]),
        message: `no plugin "${id}" was found (plugins.load.paths, the state dir's extensions/, bundled)${hint ? `; did you mean "${hint}"?` : ''}: its settings are not checked and it does not run`,
      });
      continue;
    }
    if (!plugin.manifest || plugin.problem || entry.config === undefined) continue;
    errors.push(...check(plugin.manifest.configSchema, entry.config, ['plugins', 'entries', id, 'config'], options));
  }
  // A plugin that needs settings and has none says so too, when it would run.
  for (const plugin of found.values()) {
    if (!plugin.manifest || plugin.problem || settings.entries[plugin.id]?.config !== undefined) continue;
    if (pluginState(plugin, settings, new Set(channelSections.keys())).state !== 'enabled') continue;
    errors.push(...check(plugin.manifest.configSchema, {}, ['plugins', 'entries', plugin.id, 'config'], options));
  }
  for (const [channel, section] of channelSections) {
    const plugin = found.get(providers.get(channel) ?? '');
    const schema = plugin?.manifest?.channelConfigs[channel]?.schema;
    if (!schema) continue;
    const problems = check(schema, section, ['channels', channel], options);
    if (!problems.length) {
      for (const p of channelAccessProblems(section)) problems.push({ path: toDottedPath(['channels', channel, ...p.path]), message: p.message });
    }
    errors.push(...problems);
  }
  return { errors, warnings };
}

function check(schema: Record<string, unknown>, value: unknown, base: Segment[], options: SchemaIssueOptions): ConfigIssue[] {
  const validate = validatorOf(schema);
  if (!validate || validate(value)) return [];
  return schemaProblems(validate.errors ?? [], base, options).map((p) => ({ path: toDottedPath(p.path), message: p.message }));
}
