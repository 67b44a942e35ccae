import { createHash } from 'node:crypto';
import { bundledPluginRoots } from '../../../bundled-plugins';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { LoadResult, RuntimeSnapshot } from '../config.types';
import { normalizeConfig } from '../normalize/normalize-config';
import { defaultHomeDir, NormalizeContext, resolveUserPath } from '../normalize/normalize-context';
import type { PluginCatalog } from '../plugins/plugin-catalog.types';
import { a2aServedByItsPlugin, coreChannelsServedByPlugins } from '../plugins/core-channel-sections';
import { explainUnknownChannels, findPlugins, takePluginChannels } from '../plugins/find-plugins';
import { checkPluginSettings } from '../plugins/plugin-settings';
import { buildCatalog, enabledPluginMcpServers, enabledPluginProviders, enabledPluginTools, pluginChannelProviders } from '../plugins/build-catalog';
import { ConfigIssue, ConfigLoadError, toDottedPath } from './config-issue';
import { fileStamp, FileStamp } from './file-stamp';
import { INCLUDE_LIMITS, resolveIncludes } from './resolve-includes';
import { stableJson } from './stable-json';
import { isSecretConfigPath } from '../../../common/secrets/secret-paths';
import { deepFreeze } from '../../../common/deep-freeze';
import { ConfigValueQuoter } from './config-value-quoter';
import { substituteEnv } from './substitute-env';
import { setAsideUnusableProviderUrls } from './unusable-provider-urls';
import { validateConfig } from './validate-config';
import { providersNamedElsewhere } from '../openclaw/openclaw-providers';
import { setAsideOpenClawSettings } from '../openclaw/set-aside-openclaw-settings';
import { readRetiredOpenClawSpellings } from '../openclaw/retired-openclaw-spellings';
import { unsupportedSettingWarnings } from '../openclaw/unsupported-setting-warnings';

export interface LoadConfigInput {
  configPath: string;
  stateDir: string;
  env?: NodeJS.ProcessEnv;
  homeDir?: string;
  /** Text to use for the root file instead of reading it (validate-without-applying). */
  rootText?: string;
  /** Texts to use for included files instead of reading them, by real path (a candidate edit of several files). */
  fileTexts?: ReadonlyMap<string, string>;
  now?: () => Date;
  /**
   * Directories of the plugins that ship with clawgate (discovered after load paths and the state dir's extensions);
   * default: those of `src/bundled-plugins/`.
   */
  bundledPluginRoots?: ReadonlyArray<string>;
}

/**
 * The whole pipeline: read → parse → includes → plugins found (manifests read, trust checked; no plugin code
 * runs) → OpenClaw settings clawgate does not use set aside → ${VAR} → strict validation (the plugins'
 * sections by their manifests' schemas) → normalization → the plugin catalog → snapshot.
 * Never throws for a bad config: errors and warnings come back in the result.
 */
export async function loadConfig(input: LoadConfigInput): Promise<LoadResult> {
  const env = input.env ?? process.env;
  const warnings: ConfigIssue[] = [];
  try {
    const root = input.rootText === undefined ? await readRootFile(input.configPath) : { text: input.rootText, stamp: undefined };
    const rootText = root.text;
    const included = await resolveIncludes(input.configPath, rootText, input.fileTexts);
    const homeDir = input.homeDir ?? defaultHomeDir(env);
    const found = await findPlugins({
      document: included.value,
      stateDir: input.stateDir,
      env,
      resolvePath: (written) => resolveUserPath({ configPath: input.configPath, homeDir }, written),
      bundledRoots: input.bundledPluginRoots ?? bundledPluginRoots(),
    });
    warnings.push(...found.warnings);
    const current = readRetiredOpenClawSpellings(included.value);
    warnings.push(...current.warnings);
    // Before ${VAR}: a setting clawgate never reads needs none of its variables.
    const setAside = setAsideOpenClawSettings(current.document, undefined, new Set(found.providers.keys()));
    const openclaw = { ...setAside, errors: [...current.errors, ...setAside.errors] };
    warnings.push(...unsupportedSettingWarnings(openclaw.unsupported), ...unprovidedChannelWarnings(openclaw.unprovidedChannels));
    const substituted = substituteEnv(openclaw.document, env, isSecretConfigPath);
    warnings.push(...substituted.warnings);
    if (substituted.errors.length) return { ok: false, errors: [...openclaw.errors, ...substituted.errors], warnings };

    // From here on, messages may quote offending values: always through the quoter, which names the variable
    // of a value that came from the environment instead of showing it.
    const quoter = new ConfigValueQuoter(substituted.substitutions);
    const unusable = new Set(substituted.unusableSecretPaths);
    const providerUrls = setAsideUnusableProviderUrls(substituted.value, substituted.substitutions ?? [], quoter);
    warnings.push(...providerUrls.warnings);
    const pluginChannels = takePluginChannels(providerUrls.document, found.providers);
    const validated = validateConfig(pluginChannels.document, unusable, quoter);
    if (!validated.config || openclaw.errors.length) {
      return { ok: false, errors: [...openclaw.errors, ...explainUnknownChannels(validated.errors, found)], warnings };
    }

    const ctx: NormalizeContext = {
      configPath: input.configPath,
      stateDir: input.stateDir,
      homeDir,
      env,
      unusableSecretPaths: unusable,
      unusableProviders: providerUrls.providers,
      quoter,
      errors: [],
      warnings,
      providersNamedElsewhere: providersNamedElsewhere(included.value),
      enabledPluginTools: (settings) => enabledPluginTools(found.plugins, settings, new Set(pluginChannels.sections.keys())),
      enabledPluginProviders: (settings) => enabledPluginProviders(found.plugins, settings, new Set(pluginChannels.sections.keys())),
      enabledPluginMcpServers: (settings) => enabledPluginMcpServers(found.plugins, settings, new Set(pluginChannels.sections.keys())),
      pluginChannels: (settings) => pluginChannelProviders(found.plugins, settings, new Set(pluginChannels.sections.keys())),
    };
    const normalized = normalizeConfig(ctx, validated.config);
    if (ctx.errors.length) return { ok: false, errors: ctx.errors, warnings };
    const pluginSettings = checkPluginSettings(found.plugins, normalized.plugins, pluginChannels.sections, found.providers, quoter);
    warnings.push(...pluginSettings.warnings);
    if (pluginSettings.errors.length) return { ok: false, errors: pluginSettings.errors, warnings };
    const served = coreChannelsServedByPlugins(found, normalized);
    const plugins = buildCatalog(
      found.plugins,
      normalized.plugins,
      new Map([...pluginChannels.sections, ...served.sections]),
      new Map([...found.providers, ...served.providers]),
    );
    const a2a = a2aServedByItsPlugin(normalized, plugins, served.providers);
    warnings.push(...a2a.warnings);
    const config = a2a.config;

    const contents = await Promise.all(
      included.files.map((f, i) => Promise.resolve(i === 0 ? rootText : (input.fileTexts?.get(f) ?? fs.readFile(f, 'utf8')))),
    );
    const snapshot: RuntimeSnapshot = {
      revision: sha256(stableJson(config) + catalogFingerprint(plugins)).slice(0, 12),
      loadedAt: (input.now ?? (() => new Date()))(),
      configPath: input.configPath,
      stateDir: input.stateDir,
      files: included.files,
      watchPaths: included.paths,
      contentHash: hashContents(contents),
      fileTexts: contents,
      fileStamps: snapshotStamps(input.configPath, included.files[0], root.stamp, included.stamps),
      includedPaths: included.includedPaths,
      document: included.value,
      config: deepFreeze(config),
      agentsById: new Map(config.agents.map((a) => [a.id, a])),
      plugins,
      warnings,
    };
    return { ok: true, snapshot, warnings };
  } catch (err) {
    if (err instanceof ConfigLoadError) return { ok: false, errors: err.issues, warnings };
    throw err;
  }
}

/** The root file's text and its stamp, stat'ed before the read (see file-stamp.ts). */
async function readRootFile(configPath: string): Promise<{ text: string; stamp: FileStamp }> {
  let stamp: FileStamp;
  let size: number;
  try {
    const stat = await fs.stat(configPath, { bigint: true });
    stamp = fileStamp(stat);
    size = Number(stat.size);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ConfigLoadError([
      { path: '', file: configPath, message: code === 'ENOENT' ? 'config file not found' : `cannot read config file (${code})` },
    ]);
  }
  if (size > INCLUDE_LIMITS.maxFileBytes) {
    throw new ConfigLoadError([{ path: '', file: configPath, message: `file is larger than ${INCLUDE_LIMITS.maxFileBytes} bytes` }]);
  }
  return { text: await fs.readFile(configPath, 'utf8'), stamp };
}

/**
 * The stamps the watcher's backstop compares with: the root as given (`configPath`, which may be a symlink)
 * and as resolved (`files[0]`) both get the stat of the root read; each included file, as written in its
 * `$include` and as resolved, the stat of its read.
 */
function snapshotStamps(
  configPath: string,
  rootReal: string,
  rootStamp: FileStamp | undefined,
  included: ReadonlyMap<string, FileStamp>,
): ReadonlyMap<string, FileStamp> {
  const stamps = new Map(included);
  if (rootStamp !== undefined) {
    stamps.set(path.resolve(configPath), rootStamp);
    stamps.set(rootReal, rootStamp);
  }
  return stamps;
}

/** One warning per chat channel configured that OpenClaw knows and no plugin found provides. */
function unprovidedChannelWarnings(channels: ReadonlyArray<string>): ConfigIssue[] {
  return channels.map((id) => ({ path: toDottedPath(['channels', id]), message: `no plugin provides channel ${id}: its settings are not used` }));
}

/**
 * What of the catalog the revision covers besides the normalized config: each plugin's state and its
 * channels' settings, so enabling one or editing its channel is a change. Empty without plugins, so the
 * revision of a config without any is what it always was.
 */
function catalogFingerprint(plugins: PluginCatalog): string {
  if (!plugins.size) return '';
  const digest = [...plugins.values()].map((p) => ({
    id: p.id,
    state: p.state,
    reason: p.reason,
    version: p.manifest?.version,
    channels: p.channels,
  }));
  return stableJson(digest);
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Hash over several file contents; used to tell a real edit from a no-op write event. */
export function hashContents(contents: string[]): string {
  const h = createHash('sha256');
  for (const c of contents) h.update(String(c.length)).update(':').update(c);
  return h.digest('hex');
}
