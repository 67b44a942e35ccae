import { isPlainObject } from '../../../common/is-record';
import { declareSecretPaths } from '../../../common/secrets/secret-paths';
import { suggestClosest } from '../../../common/text/did-you-mean';
import type { ConfigIssue } from '../pipeline/config-issue';
import { substituteEnv } from '../pipeline/substitute-env';
import { discoverPlugins, type FoundPlugin } from './discover-plugins';
import { CORE_CHANNELS } from './read-manifest';

export interface FindPluginsInput {
  /** The merged document, before `${VAR}` substitution. */
  document: unknown;
  stateDir: string;
  env: NodeJS.ProcessEnv;
  /** Resolves a path as written in the config (relative to the config file, `~` expanded). */
  resolvePath: (written: string) => string;
  bundledRoots?: ReadonlyArray<string>;
}

export interface FoundPlugins {
  plugins: ReadonlyMap<string, FoundPlugin>;
  /** Channel id → the id of the plugin that provides it (the first found). */
  providers: ReadonlyMap<string, string>;
  warnings: ConfigIssue[];
}

/**
 * The first plugin step of a load, before the OpenClaw settings are set aside: which plugins exist and
 * which chat channels they provide (so `channels.<id>` is a plugin's section, not an unknown key), and the
 * secret fields their manifests declare (so `${VAR}` substitution, messages and the masker treat them as
 * secrets). `plugins.load.paths` is read from the document as written, its `${VAR}`s resolved quietly: strict
 * validation reports what is wrong with it later.
 */
export async function findPlugins(input: FindPluginsInput): Promise<FoundPlugins> {
  const discovery = await discoverPlugins({
    loadPaths: loadPathsOf(input.document, input.env).map(input.resolvePath),
    stateDir: input.stateDir,
    bundledRoots: input.bundledRoots,
  });
  const providers = new Map<string, string>();
  for (const plugin of discovery.plugins.values()) {
    if (!plugin.manifest || plugin.problem) continue;
    const taken = plugin.manifest.contracts.channels.find((c) => providers.has(c));
    if (taken) {
      plugin.problem = `its channel "${taken}" is provided by the plugin "${providers.get(taken)}", found first`;
      continue;
    }
    // A core channel a bundled plugin serves keeps its section in the core's config: not a plugin's section.
    for (const channel of plugin.manifest.contracts.channels) if (!CORE_CHANNELS.has(channel)) providers.set(channel, plugin.id);
    declareSecretPaths(secretPatterns(plugin));
  }
  return { plugins: discovery.plugins, providers, warnings: [...discovery.warnings, ...refusals(discovery.plugins)] };
}

/** One warning per refused plugin, naming the file and the field: the gateway runs without it. */
function refusals(plugins: ReadonlyMap<string, FoundPlugin>): ConfigIssue[] {
  return [...plugins.values()]
    .filter((p) => p.problem)
    .map((p) => ({ path: 'plugins', message: `plugin "${p.id}" (${p.root}) is refused: ${p.problem}` }));
}

/** The secret paths of a plugin's config and of its channels' sections, `*` for any key. */
function secretPatterns(plugin: FoundPlugin): string[][] {
  const manifest = plugin.manifest!;
  const patterns = manifest.secrets.map((key) => ['plugins', 'entries', plugin.id, 'config', ...key.split('.')]);
  for (const [channel, spec] of Object.entries(manifest.channelConfigs)) {
    const keys = [...(spec.secrets ?? []), ...(spec.setup ?? []).filter((f) => f.sensitive).map((f) => f.key)];
    patterns.push(...keys.map((key) => ['channels', channel, ...key.split('.')]));
  }
  return patterns;
}

function loadPathsOf(document: unknown, env: NodeJS.ProcessEnv): string[] {
  const plugins = isPlainObject(document) ? document.plugins : undefined;
  const load = isPlainObject(plugins) ? plugins.load : undefined;
  const paths = isPlainObject(load) ? load.paths : undefined;
  if (!Array.isArray(paths)) return [];
  const substituted = substituteEnv(paths, env, () => false).value;
  return (Array.isArray(substituted) ? substituted : []).filter((p): p is string => typeof p === 'string' && p.trim().length > 0);
}

/**
 * `channels.<id>` sections that a found plugin provides, taken out of the document after `${VAR}`
 * substitution: the core schema does not know them, the plugin's does (checked in plugin-settings.ts).
 */
export function takePluginChannels(
  document: unknown,
  providers: ReadonlyMap<string, string>,
): { document: unknown; sections: Map<string, unknown> } {
  const sections = new Map<string, unknown>();
  if (!isPlainObject(document) || !isPlainObject(document.channels)) return { document, sections };
  const channels = { ...document.channels };
  for (const key of Object.keys(channels)) {
    if (!providers.has(key)) continue;
    sections.set(key, channels[key]);
    delete channels[key];
  }
  return sections.size ? { document: { ...document, channels }, sections } : { document, sections };
}

/**
 * An unknown `channels.<id>` says which channels the found plugins provide, with did-you-mean among them
 * too: `channels.telegrm: unknown key (did you mean "telegram"?)`.
 */
export function explainUnknownChannels(errors: ConfigIssue[], found: FoundPlugins): ConfigIssue[] {
  const provided = [...found.providers.keys()];
  return errors.map((issue) => {
    const match = /^channels\.([^.[]+)$/.exec(issue.path);
    if (!match || !issue.message.startsWith('unknown key')) return issue;
    const hint = issue.message.includes('did you mean') ? undefined : suggestClosest(match[1], provided);
    const which = provided.length ? `the plugins found provide ${provided.join(', ')}` : 'no plugin found provides a channel';
    return { ...issue, message: `${hint ? `unknown key (did you mean "${hint}"?)` : issue.message}: no plugin provides channel ${match[1]} (${which})` };
  });
}
