/**
 * What the gateway knows of its plugins before running any of their code: each plugin's checked manifest, where
 * it was found, whether it may run, and its validated config. The config pipeline builds the catalog (the
 * manifests' schemas take part in validating `openclaw.json`), the snapshot carries it, and the plugins module
 * loads the code of the plugins it names `enabled`. See docs/plugins.md.
 */

/** One field of a channel's setup (`clawgate channels add <id> --<flag> …`). */
export interface ChannelSetupField {
  /** The command-line flag without dashes (`advertised-url`). */
  flag: string;
  /** The key of `channels.<id>` it writes (dotted below the section: `advertisedUrl`, `peers.*.token`). */
  key: string;
  description?: string;
  required?: boolean;
  /** A secret: read from an environment variable's name or stdin, written as a `${VAR}` reference, never echoed. */
  sensitive?: boolean;
}

/** A channel a plugin provides: the schema of its `channels.<id>` section and how to set it up. */
export interface ManifestChannel {
  /**
   * JSON Schema of `channels.<id>`. Absent for a core channel a bundled plugin serves (`a2a`): its section's schema is
   * the core's, so the manifest names only its setup fields.
   */
  schema?: Record<string, unknown>;
  /** Dotted keys below `channels.<id>` holding secrets (besides the schema's `uiHints` marked sensitive). */
  secrets?: string[];
  /**
   * Environment variables the channel reads a secret from on its own (Telegram's `TELEGRAM_BOT_TOKEN`, the token
   * when the section names none): their values join the one secret masker while the channel is configured.
   */
  secretEnv?: string[];
  setup?: ChannelSetupField[];
}

/** A plugin's manifest (`clawgate.plugin.json`, or an `openclaw.plugin.json` read the same), checked. */
export interface PluginManifest {
  id: string;
  name?: string;
  description?: string;
  version?: string;
  /** JSON Schema of `plugins.entries.<id>.config`. */
  configSchema: Record<string, unknown>;
  /** The module to load, relative to the plugin root (default `index.js`, else package.json `main`). */
  entry?: string;
  /** What the plugin will register: checked against what it does register (a tool it did not declare is refused). */
  contracts: { tools: string[]; providers: string[]; channels: string[]; mcpServers: string[] };
  /** Per channel id in `contracts.channels`. */
  channelConfigs: Record<string, ManifestChannel>;
  /** `startup`: loaded when enabled; `channel`: only once one of its channels is configured under `channels`. */
  activation: 'startup' | 'channel';
  /** Dotted keys below `plugins.entries.<id>.config` holding secrets (they join the one secret masker). */
  secrets: string[];
  /** A change to its config takes effect only after a restart (status and the plan say so). */
  restartRequired: boolean;
  /** Which file it was read from: clawgate's own name or OpenClaw's. */
  format: 'clawgate' | 'openclaw';
}

/** Where a plugin was found, in discovery order (the first place wins). */
export type PluginSource = 'load-path' | 'extensions' | 'bundled' | 'code';

/**
 * `enabled`: may run (the plugins module loads it); `disabled`: by `plugins.enabled: false`,
 * `plugins.entries.<id>.enabled: false`, not on `allow`, on `deny`, or not activated (no channel of its own
 * configured); `refused`: found but not trusted or not valid (the reason says which).
 */
export type CatalogState = 'enabled' | 'disabled' | 'refused';

export interface CatalogPlugin {
  id: string;
  source: PluginSource;
  /** The plugin's root directory (real path); absent for a plugin given in code. */
  root?: string;
  manifestFile?: string;
  /** The entry module's absolute path; absent for a plugin given in code. */
  entryFile?: string;
  /** Absent when the manifest itself could not be read or checked (state `refused`). */
  manifest?: PluginManifest;
  state: CatalogState;
  /** Why it is disabled or refused, for status and the CLI. */
  reason?: string;
  /** Its validated `plugins.entries.<id>.config` (`{}` when absent). */
  config: Record<string, unknown>;
  /** The `channels.<id>` sections of the channels it provides that are configured, validated by its manifest's schemas. */
  channels?: Record<string, Record<string, unknown>>;
}

/** Every plugin the gateway found, by id, in discovery order. */
export type PluginCatalog = ReadonlyMap<string, CatalogPlugin>;
