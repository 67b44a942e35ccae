import type { GatewayAuthMode } from './schema/gateway-auth.schema';
import type { ConfigIssue } from './pipeline/config-issue';
import type { FileStamp } from './pipeline/file-stamp';
import type { PluginCatalog } from './plugins/plugin-catalog.types';
import type { AdminRole } from '../../common/auth/roles';
import type { A2aWireVersion } from '../../common/a2a-protocol';

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

/** `mcp` (docs/mcp.md): the MCP servers whose tools agents may use, by name. */
export interface McpSettings {
  servers: Record<string, McpServerSettings>;
}

export type McpTransport = 'stdio' | 'streamable-http' | 'sse';

/** One `mcp.servers.<name>`, defaults filled, its transport decided. */
export interface McpServerSettings {
  name: string;
  enabled: boolean;
  transport: McpTransport;
  /** stdio: the program, its arguments, its added environment (values are secrets) and its absolute working directory. */
  command?: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** streamable-http, sse: the endpoint and the headers of every request (values are secrets). */
  url?: string;
  headers: Record<string, string>;
  startup: 'lazy' | 'boot';
  requestTimeoutMs: number;
  connectionTimeoutMs: number;
  maxOutputBytes: number;
  /** The server's tool names (and `*` globs) kept; absent include: every tool. */
  toolFilter: { include?: string[]; exclude: string[] };
}

/** `plugins` (docs/plugins.md): what may run and each plugin's settings; what was found is the snapshot's catalog. */
export interface PluginsSettings {
  enabled: boolean;
  /** Absent: no allow list (every plugin the other settings enable may run). */
  allow?: string[];
  deny: string[];
  /** Absolute, `~` expanded, in the order written. */
  load: { paths: string[] };
  /** By plugin id: `config` as written (after `${VAR}`), checked against the plugin's manifest. */
  entries: Record<string, { enabled?: boolean; config?: Record<string, unknown> }>;
}

export type SessionVisibility = 'self' | 'tree' | 'agent' | 'all';
/** Which sessions of an agent run sandboxed: none, all but its main session, or all (OpenClaw's modes). */
export type SandboxMode = 'off' | 'non-main' | 'all';
export type DmScope = 'main' | 'per-peer' | 'per-channel-peer' | 'per-account-channel-peer';
export type PeerKind = 'direct' | 'group' | 'channel';

export type TlsSettings = { enabled: false } | { enabled: true; certPath: string; keyPath: string; caPath?: string };

export interface GatewaySettings {
  port: number;
  /** The address listened on: gateway.bind's mode (loopback, lan, auto, custom, tailnet) resolved, or its IP. */
  bind: string;
  /** OpenClaw's gateway.auth mode in effect, inferred when unset (its credentials are among admin.tokens, or admin.sso). */
  auth: { mode: GatewayAuthMode };
  trustedProxies: string[];
  publicUrl?: string;
  reload: { mode: 'hybrid' | 'off'; debounceMs: number };
  /** HTTPS on the listener: the files' resolved paths (read at start), or off. */
  tls: TlsSettings;
  /** How long a stop lets the runs in flight finish before aborting them (0: at once). */
  drainMs: number;
  admin: {
    /** `token` is undefined when its ${VAR} is unset: the entry counts as configured and matches nobody. */
    tokens: Array<{ name: string; token?: string; role: AdminRole }>;
    sso: {
      enabled: boolean;
      trustedProxies: string[];
      userHeader: string;
      emailHeader: string;
      groupsHeader: string;
      jwt?: { header: string; jwksUrl: string; issuer?: string; audience?: string; algorithms?: string[] };
      roleMapping: Record<string, AdminRole>;
      defaultRole: 'none' | AdminRole;
    };
    publicDocs: boolean;
  };
  http: { endpoints: { chatCompletions: ChatCompletionsSettings; mcp: McpEndpointSettings } };
  telemetry: TelemetrySettings;
  metrics: MetricsSettings;
  state: StateSettings;
  /** Absent: a single process (docs/deploy.md#cluster-coordination). */
  cluster?: ClusterSettings;
}

/** `gateway.cluster`: the Redis server the replicas coordinate through. */
export interface ClusterSettings {
  redis: {
    url: string;
    /** Undefined when not set, or when its ${VAR} was unset (then Redis is dialled without AUTH). */
    password?: string;
  };
}

/** `gateway.state` (docs/deploy.md): `url` is set exactly when the backend is postgres. */
export type StateSettings = { backend: 'sqlite' } | { backend: 'postgres'; url: string };

/** `gateway.metrics`: who may read `GET /metrics` (docs/operations.md#who-may-scrape). */
export interface MetricsSettings {
  /** A token is configured, even one whose ${VAR} is unset (then nobody matches: closed, never open). */
  tokenRequired: boolean;
  /** Absent when not configured or its ${VAR} is unset. */
  token?: string;
}

/** `gateway.telemetry` (docs/telemetry.md). Unset fields leave the choice to the OTEL_* variables. */
export interface TelemetrySettings {
  enabled: boolean;
  serviceName?: string;
  sampleRatio?: number;
}

/** An agent endpoint's settings: `gateway.http.endpoints.chatCompletions` and `.mcp` share the key model. */
export interface KeyedEndpointSettings {
  enabled: boolean;
  rateLimitPerMinute: number;
  keys: EndpointKey[];
}

/** `gateway.http.endpoints.chatCompletions` (docs/openai-endpoint.md). */
export type ChatCompletionsSettings = KeyedEndpointSettings;
/** `gateway.http.endpoints.mcp` (docs/mcp.md). */
export type McpEndpointSettings = KeyedEndpointSettings;
export type ChatCompletionsKey = EndpointKey;

/** A bearer key of an agent endpoint and the agents it may use. */
export interface EndpointKey {
  name: string;
  /** Undefined when its ${VAR} was unset: the key cannot authenticate until it is. */
  token?: string;
  /** Agent ids or `*` patterns, as written (trimmed). */
  agents: string[];
  usable: boolean;
}

export interface MemoryCollectionSettings {
  /** Absolute directory. */
  path: string;
  name: string;
  pattern?: string;
}

/** A tool policy as the runtime applies it: deny wins (`*` denies all), an empty allow list allows every tool. */
export interface ToolPolicy {
  allow: string[];
  deny: string[];
}

/** The policies of an agent's sessions that a narrowing level applies to (ResolvedAgent.sessionTools). */
export interface SessionToolPolicies {
  sandboxed: ToolPolicy;
  subagent: ToolPolicy;
  /** A spawned session that is also sandboxed: both levels. */
  sandboxedSubagent: ToolPolicy;
}

/** A limit of sessions_spawn and the config key it was read from (named when a spawn is refused). */
export interface SubagentLimit {
  value: number;
  /** e.g. `agents.defaults.subagents.maxSpawnDepth`, `agents.list[1].subagents.maxChildrenPerAgent`. */
  key: string;
}

export interface ToolApprovalSettings {
  /** Tool names and `*` patterns (`group:` entries expanded); a call whose tool matches one waits. Empty: none. */
  tools: string[];
  timeoutMs: number;
  /** `<channel>:<sender id>` of the chat senders who may decide from a chat (`tools.approvers`). Empty: none. */
  approvers: string[];
}

export interface SubagentLimits {
  maxSpawnDepth: SubagentLimit;
  maxChildrenPerAgent: SubagentLimit;
}

export interface ResolvedAgent {
  id: string;
  isDefault: boolean;
  name?: string;
  /** Absolute paths, `~` expanded. */
  workspace: string;
  agentDir: string;
  sessionsDir: string;
  /** The primary model, `provider/model` (an alias resolved). */
  model: string;
  /** `provider/model` tried in order when the one before fails (docs/runtime.md#model-fallbacks); aliases resolved. */
  fallbacks: string[];
  identity: { name?: string; emoji?: string; avatar?: string };
  /** Operator-written; published only on the authenticated extended Agent Card. */
  description?: string;
  sandbox: { mode: SandboxMode; scope?: 'session' | 'agent' | 'shared' };
  tools: ToolPolicy;
  /**
   * The tools of the agent's sandboxed and spawned sessions when `tools.sandbox.tools` (or the agent's
   * `tools.sandbox.tools`) or `tools.subagents.tools` narrows them (docs/configuration.md#tools); each is
   * `tools` with those levels applied. Absent: every session of the agent has `tools`.
   */
  sessionTools?: SessionToolPolicies;
  extraCollections: MemoryCollectionSettings[];
  /** The limits of the tree of sessions this agent's sessions spawn (docs/sessions.md#spawn-limits). */
  subagents: SubagentLimits;
  /** Which of its tools' calls wait for an operator's decision, and how long (docs/approvals.md). */
  approvals: ToolApprovalSettings;
  /** Where the entry sits in openclaw.json (for the writer), e.g. `['agents','list',2]`. */
  source: Array<string | number>;
}

export interface ResolvedBinding {
  /** Position in `bindings[]`; config order decides ties within a tier. */
  index: number;
  agentId: string;
  match: {
    channel: string;
    accountId?: string;
    peer?: { kind: PeerKind; id: string };
    guildId?: string;
    teamId?: string;
  };
}

export interface MemorySettings {
  backend: 'builtin' | 'qmd';
  citations: 'auto' | 'on' | 'off';
  qmd: {
    includeDefaultMemory: boolean;
    sessionsEnabled: boolean;
    paths: MemoryCollectionSettings[];
    debounceMs: number;
    maxResults: number;
    maxSnippetChars: number;
    /** Relevance below which results are dropped when the caller gives no minScore. */
    minScore: number;
  };
  embeddings: {
    provider: 'bundled' | 'bundled-static' | 'openai' | 'none';
    baseUrl?: string;
    apiKey?: string;
    model?: string;
    /** Worker threads of the bundled model. */
    workers: number;
  };
}

/** `models` and `agents.defaults.models`: the providers, and the model catalog of the agents. */
/** What a budget is attached to: every id the pattern matches has the limit on its own. */
export type BudgetScope = 'agent' | 'session' | 'peer' | 'key' | 'account';

export interface BudgetSettings {
  name: string;
  scope: BudgetScope;
  /** An id, or a pattern with `*`. */
  pattern: string;
  tokens?: number;
  cost?: number;
  /** `run`, `day`, `month` (UTC), or a rolling number of hours. */
  window: { kind: 'run' | 'day' | 'month' } | { kind: 'hours'; hours: number };
  softAt?: number;
}

export interface ModelsSettings {
  mode: 'merge' | 'replace';
  providers: Record<string, ModelProviderSettings>;
  /** alias → `provider/model` (agents.defaults.models[ref].alias). */
  aliases: Record<string, string>;
  /**
   * The keys of agents.defaults.models (`provider/model` or `provider/*`): OpenClaw's allowlist for models picked at
   * run time (`/model`, session overrides). Empty: no list. Configured models and fallbacks are never filtered by it.
   */
  allowed: string[];
}

/** A protocol clawgate speaks to a model provider. */
export type ModelApi = 'openai-chat' | 'anthropic-messages' | 'echo';

/** A model of a provider's catalog (`models.providers.<name>.models[]`), kept for limits and usage pricing. */
export interface ProviderModelSettings {
  id: string;
  name?: string;
  /** This model's protocol when the entry sets one (mapped like the provider's). */
  api?: ModelApi | 'unsupported';
  apiAsWritten?: string;
  reasoning?: boolean;
  input?: string[];
  /** Per million tokens. */
  cost?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number };
  contextWindow?: number;
  contextTokens?: number;
  maxTokens?: number;
}

export interface ModelProviderSettings {
  name: string;
  /**
   * The protocol clawgate speaks to it. `unsupported`: the file names an OpenClaw kind clawgate does not speak
   * (`apiAsWritten`); a run whose model is on it goes on to its fallbacks. `plugin`: a model API an enabled plugin
   * declares in its manifest's `contracts.providers` (the provider's name is its id); called while that plugin is active.
   */
  api: ModelApi | 'unsupported' | 'plugin';
  /** `api` as the file writes it, when that is an OpenClaw kind (`openai-completions`, `ollama`, `google-generative-ai`, …). */
  apiAsWritten?: string;
  baseUrl?: string;
  /**
   * Why the provider cannot be called (its `${VAR}` baseUrl is no URL; names the variable, never its value): a run on
   * it goes on to its fallbacks.
   */
  unusable?: string;
  apiKey?: string;
  /** Env var consulted when apiKey is unset (built-in providers). */
  apiKeyEnv?: string;
  requiresKey: boolean;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Stream when the run's caller takes deltas (docs/runtime.md#streamed-replies). */
  stream: boolean;
  /** Echo only: pause between streamed words. */
  streamDelayMs: number;
  models: ProviderModelSettings[];
}

export interface A2aPeerSettings {
  name: string;
  /** Undefined when its ${VAR} was unset: the peer cannot authenticate until it is. */
  token?: string;
  url?: string;
  outboundToken?: string;
  /** The A2A version outbound calls to this peer speak. */
  protocolVersion: A2aWireVersion;
  /** URL patterns the peer's push notification configs must match; empty: push refused for this peer. */
  pushUrls: string[];
  /** Whether the budget this peer's messages carry limits its tasks (docs/usage.md#across-gateways). */
  trustBudget: boolean;
  usable: boolean;
}

export interface A2aChannelSettings {
  enabled: boolean;
  advertisedUrl?: string;
  replyTimeoutMs: number;
  /** How long a run's request_input waits for the peer's answer. */
  inputTimeoutMs: number;
  rateLimitPerMinute: number;
  /** Finished tasks the task store keeps per peer; read at each write, so a reload applies to the next one. */
  keptTasksPerPeer: number;
  /** Null = all agents. */
  exposeAgents: string[] | null;
  peers: Record<string, A2aPeerSettings>;
  files: A2aFilePolicy;
}

/** What peers may attach to a message (docs/a2a.md#files). */
export interface A2aFilePolicy {
  /** Most decoded bytes of all raw parts of one message. */
  maxBytes: number;
  /** Accepted media ranges, lowercase: `type/subtype`, `type/*`, or an asterisk on both sides (any type). */
  mediaTypes: string[];
}

export interface HttpChannelSettings {
  enabled: boolean;
  accounts: Record<string, { id: string; token?: string; webhookUrl?: string; usable: boolean }>;
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
