import * as os from 'node:os';
import * as path from 'node:path';
import type { PluginsSettings } from '../config.types';
import type { ConfigIssue } from '../pipeline/config-issue';
import type { ConfigValueQuoter } from '../pipeline/config-value-quoter';

/** What normalization needs from outside the document, and where it reports problems. */
export interface NormalizeContext {
  configPath: string;
  stateDir: string;
  homeDir: string;
  env: NodeJS.ProcessEnv;
  /** Secret fields whose ${VAR} was unset (from the substitution step). */
  unusableSecretPaths: ReadonlySet<string>;
  /** Model providers whose `${VAR}` baseUrl is no URL (pipeline/unusable-provider-urls.ts): name → why runs on them fail. */
  unusableProviders?: ReadonlyMap<string, string>;
  /** How a message shows a value of the document: every value a message quotes goes through it. */
  quoter: ConfigValueQuoter;
  errors: ConfigIssue[];
  warnings: ConfigIssue[];
  /**
   * Model providers the document names outside models.providers (OpenClaw's auth profiles and plugins, which
   * clawgate sets aside): a model on one is recognised, not a typo.
   */
  providersNamedElsewhere?: ReadonlySet<string>;
  /**
   * The tools (lower case) the plugins this config enables declare in their manifests' `contracts.tools`, given its
   * normalized `plugins` settings: a tool policy naming one names a tool of this gateway.
   */
  enabledPluginTools?: (settings: PluginsSettings) => ReadonlySet<string>;
  /** The model providers the plugins this config enables declare in `contracts.providers`: usable as `<id>/<model>`. */
  enabledPluginProviders?: (settings: PluginsSettings) => ReadonlySet<string>;
  /** The MCP servers the plugins this config enables declare in `contracts.mcpServers`: a tool policy may name them. */
  enabledPluginMcpServers?: (settings: PluginsSettings) => ReadonlySet<string>;
  /**
   * The chat channels plugins declare (`contracts.channels`), each with its plugin and, when these settings keep that
   * plugin off, why: a binding naming one is told what to configure instead of "no adapter".
   */
  pluginChannels?: (settings: PluginsSettings) => ReadonlyMap<string, { plugin: string; off?: string }>;
}

/** Expands `~` and resolves relative paths against `base` (the config file's directory unless given). */
export function resolveUserPath(ctx: Pick<NormalizeContext, 'homeDir' | 'configPath'>, value: string, base = path.dirname(ctx.configPath)): string {
  const trimmed = value.trim();
  if (trimmed === '~') return ctx.homeDir;
  if (trimmed.startsWith('~/')) return path.join(ctx.homeDir, trimmed.slice(2));
  return path.resolve(base, trimmed);
}

export function defaultHomeDir(env: NodeJS.ProcessEnv): string {
  return env.HOME || os.homedir();
}

/** True when `child` is `parent` or lies inside it. */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
