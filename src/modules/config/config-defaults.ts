import { deepFreeze } from '../../common/deep-freeze';

/**
 * Every default of openclaw.json, in the shape of the file: the value the gateway uses when a key is
 * absent. Normalization reads its defaults from here, and the schema classes put each one into the
 * exported JSON Schema as `default`, so the editor, the gateway and the docs (checked by a test) cannot
 * drift apart. A key that is absent here has no default: it stays unset, or its value is derived (agent
 * paths, collection names, the built-in model providers) by the code that resolves it.
 *
 * Fields of `agents.defaults` are also the last fallback of each agent's own field: an agent that sets
 * no `sandbox.mode` takes `agents.defaults.sandbox.mode`, and this value when that is unset too.
 *
 * This file imports nothing of the schema: the schema classes import it for their `@Default`s. That every
 * key here is a key of the schema classes, with a value of its type, is checked at compile time by
 * `schema/config-defaults-shape.ts`.
 */
export const CONFIG_DEFAULTS = deepFreeze({
  gateway: {
    port: 18789,
    bind: '127.0.0.1',
    trustedProxies: [],
    reload: { mode: 'hybrid', debounceMs: 300 },
    tls: { enabled: false },
    drainMs: 0,
    admin: {
      tokens: [],
      sso: {
        enabled: false,
        trustedProxies: [],
        userHeader: 'X-Forwarded-User',
        emailHeader: 'X-Forwarded-Email',
        groupsHeader: 'X-Forwarded-Groups',
        // Applies only once `jwt` is set; without it there is no JWT check at all.
        jwt: { header: 'X-Forwarded-Access-Token' },
        roleMapping: {},
        defaultRole: 'none',
      },
      publicDocs: false,
    },
    http: {
      endpoints: {
        chatCompletions: { enabled: false, keys: [], rateLimitPerMinute: 60 },
        mcp: { enabled: false, keys: [], rateLimitPerMinute: 60 },
      },
    },
    // serviceName and sampleRatio have no default: unset, the OTEL_* variables decide (docs/telemetry.md).
    telemetry: { enabled: false },
    // One process with files in the state dir needs no database server.
    state: { backend: 'sqlite' },
  },
  agents: {
    defaults: {
      // The offline echo model: a config never fails to run for lack of an API key.
      model: 'echo/default',
      memorySearch: { qmd: { extraCollections: [] } },
      sandbox: { mode: 'off' },
      // No tool waits for an operator unless one is named; a call that does waits ten minutes at most.
      tools: { allow: [], deny: [], requiresApproval: [], approvalTimeoutMs: 600_000, approvers: [] },
      // OpenClaw's documented defaults (docs.openclaw.ai/tools/subagents/nesting).
      subagents: { maxSpawnDepth: 5, maxChildrenPerAgent: 5 },
    },
    list: [],
  },
  bindings: [],
  budgets: [],
  tools: {
    agentToAgent: { enabled: false, allow: [] },
    sessions: { visibility: 'tree' },
  },
  session: {
    dmScope: 'main',
    mainKey: 'main',
    agentToAgent: { maxPingPongTurns: 5, maxChainHops: 8, keptExchanges: 10_000 },
  },
  memory: {
    backend: 'builtin',
    citations: 'auto',
    qmd: {
      includeDefaultMemory: true,
      sessions: { enabled: false },
      paths: [],
      update: { debounceMs: 1500 },
      // minScore: calibrated on the bundled model (docs/memory.md#relevance-and-minscore).
      limits: { maxResults: 6, maxSnippetChars: 700, minScore: 0.4 },
    },
    embeddings: { provider: 'bundled', workers: 1, rerank: 10 },
  },
  // merge: the built-in providers stay beside models.providers (docs/configuration.md#built-in-model-providers).
  models: { mode: 'merge' },
  channels: {
    a2a: {
      enabled: false,
      replyTimeoutMs: 120_000,
      inputTimeoutMs: 600_000,
      rateLimitPerMinute: 30,
      keptTasksPerPeer: 500,
      peers: {},
      // Text and JSON reach the agent inline; anything else must be allowed by the operator first.
      files: { maxBytes: 1024 * 1024, mediaTypes: ['text/*', 'application/json'] },
    },
    http: { enabled: false, accounts: {} },
  },
  // Plugins are found, but only the ones the operator names may run (docs/plugins.md#the-catalog).
  plugins: { enabled: true, deny: [], load: { paths: [] }, entries: {} },
  mcp: { servers: {} },
  each: {
    agent: { default: false, identity: {} },
    memoryCollection: { pattern: '**/*.md' },
    modelProvider: { headers: {}, timeoutMs: 120_000, stream: true, streamDelayMs: 0 },
    a2aPeer: { protocolVersion: '1.0', pushUrls: [], trustBudget: false },
    // An MCP server starts when a run first needs it; a call gets a minute, the model at most 256 KiB of its result.
    mcpServer: {
      enabled: true,
      args: [],
      env: {},
      headers: {},
      startup: 'lazy',
      requestTimeoutMs: 60_000,
      connectionTimeoutMs: 30_000,
      maxOutputBytes: 256 * 1024,
      toolFilter: { exclude: [] },
    },
  },
} as const);
