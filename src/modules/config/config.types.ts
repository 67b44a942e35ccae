import type { ConfigIssue } from './pipeline/config-issue';
import type { FileStamp } from './pipeline/file-stamp';
import type { PluginCatalog } from './plugins/plugin-catalog.types';
import type { ResolvedAgent } from './types/agents.types';
import type { BudgetSettings } from './types/budgets.types';
import type { A2aChannelSettings, HttpChannelSettings } from './types/channels.types';
import type { GatewaySettings } from './types/gateway.types';
import type { McpSettings } from './types/mcp.types';
import type { MemorySettings } from './types/memory.types';
import type { ModelsSettings } from './types/models.types';
import type { PluginsSettings } from './types/plugins.types';
import type { ResolvedBinding } from './types/routing.types';
import type { DmScope, SessionVisibility } from './types/session.types';

// The types of each section live in types/; importers keep reading them all from here.
export type {
  ResolvedAgent,
  SandboxMode,
  SessionToolPolicies,
  SubagentLimit,
  SubagentLimits,
  ToolApprovalSettings,
  ToolPolicy,
} from './types/agents.types';
export type { BudgetScope, BudgetSettings } from './types/budgets.types';
export type { A2aChannelSettings, A2aFilePolicy, A2aPeerSettings, HttpChannelSettings } from './types/channels.types';
export type {
  ChatCompletionsKey,
  ChatCompletionsSettings,
  ClusterSettings,
  EndpointKey,
  GatewaySettings,
  KeyedEndpointSettings,
  McpEndpointSettings,
  MetricsSettings,
  StateSettings,
  TelemetrySettings,
  TlsSettings,
} from './types/gateway.types';
export type { McpServerSettings, McpSettings, McpTransport } from './types/mcp.types';
export type { MemoryCollectionSettings, MemorySettings } from './types/memory.types';
export type { ModelApi, ModelProviderSettings, ModelsSettings, ProviderModelSettings } from './types/models.types';
export type { PluginsSettings } from './types/plugins.types';
export type { PeerKind, ResolvedBinding } from './types/routing.types';
export type { DmScope, SessionVisibility } from './types/session.types';

/**
 * The normalized, fully-defaulted config every service reads. Produced by the pipeline from a validated
 * openclaw.json; immutable once inside a snapshot.
 */
export interface NormalizedConfig {
  gateway: GatewaySettings;
  agents: ResolvedAgent[];
  defaultAgentId: string;
  bindings: ResolvedBinding[];
  tools: {
    agentToAgent: { enabled: boolean; allow: string[] };
    sessions: { visibility: SessionVisibility };
  };
  session: {
    dmScope: DmScope;
    mainKey: string;
    agentToAgent: { maxPingPongTurns: number; maxChainHops: number; keptExchanges: number };
  };
  memory: MemorySettings;
  models: ModelsSettings;
  channels: { a2a: A2aChannelSettings; http: HttpChannelSettings };
  plugins: PluginsSettings;
  mcp: McpSettings;
  /** Limits on model tokens and cost (docs/usage.md#budgets). */
  budgets: BudgetSettings[];
}

/** Everything a load produced: the snapshot on success, the errors otherwise, warnings either way. */
export type LoadResult =
  { ok: true; snapshot: RuntimeSnapshot; warnings: ConfigIssue[] } | { ok: false; errors: ConfigIssue[]; warnings: ConfigIssue[] };

/** One immutable view of the configuration; services read `configStore.current()` per request. */
export interface RuntimeSnapshot {
  /** sha256 of the normalized config, first 12 hex chars. */
  revision: string;
  loadedAt: Date;
  configPath: string;
  stateDir: string;
  /** Every file the config was read from (root first), as real paths. */
  files: string[];
  /**
   * Every path those files were reached through: `configPath` and each `$include` target as written (symlinks
   * kept) and as resolved (`files`). The watcher and its stat backstop follow exactly these, for whatever
   * snapshot is served: what the config is read from can change while what it says (the revision) does not.
   */
  watchPaths: ReadonlyArray<string>;
  /** sha256 over the contents of `files`, to recognize a change event that changed nothing. */
  contentHash: string;
  /** The text of each of `files`, as read (same order): what the config history keeps of a revision. */
  fileTexts: ReadonlyArray<string>;
  /**
   * Path → stamp (device, inode, size, mtime, ctime) of each of `watchPaths`: the stat of the file it led to,
   * taken right before that file was read; the watcher's backstop compares the files on disk with these.
   * A root given as text (validate, tests) has none.
   */
  fileStamps: ReadonlyMap<string, FileStamp>;
  /** Dotted path of a key → the included file that provides it. */
  includedPaths: ReadonlyMap<string, string>;
  /** The merged document before ${VAR} substitution (safe to copy to disk: secrets stay as ${VAR}). */
  document: Record<string, unknown>;
  config: NormalizedConfig;
  agentsById: ReadonlyMap<string, ResolvedAgent>;
  /**
   * Every plugin the config pipeline found, checked before any plugin code runs (docs/plugins.md#the-catalog);
   * the plugins module loads the code of those `enabled`. Empty until discovery is built.
   */
  plugins: PluginCatalog;
  warnings: ConfigIssue[];
}
