import { implemented, implementedEach, legacy, OpenClawKey, unsupported, unsupportedNames } from './openclaw-key-tree';
import { AGENTS_KEYS } from './openclaw-agent-keys';
import { CHANNELS_KEYS } from './openclaw-channel-keys';
import { GATEWAY_KEYS } from './openclaw-gateway-keys';
import { TOOLS_KEYS } from './openclaw-tool-keys';
import { UNIMPLEMENTED_SECTIONS } from './openclaw-unimplemented-sections';

/**
 * The settings OpenClaw documents for openclaw.json and what clawgate does with each (see
 * openclaw-key-tree.ts for the four marks). Taken from OpenClaw's configuration reference
 * (docs/gateway/configuration-reference.md, config-agents.md, config-channels.md, config-tools.md of the
 * openclaw/docs repository, April to August 2026, plus doctor.md for `meta` and the legacy keys).
 *
 * Keys clawgate adds of its own (gateway.admin, channels.a2a, …) are not listed: the schema owns them.
 * Below the second level, an unsupported setting is mostly left open (its contents are not checked),
 * since clawgate reads none of it. docs/openclaw-compatibility.md is generated from this data
 * (`npm run compat-doc`); a test fails when the two differ.
 */

export const OPENCLAW_KEYS: OpenClawKey = implemented({
  $schema: implemented(),

  // ── Sections clawgate implements, with the OpenClaw keys inside them it does not ──
  gateway: GATEWAY_KEYS,
  agents: AGENTS_KEYS,

  bindings: implementedEach(
    'list',
    implemented({
      agentId: implemented(),
      match: implemented({
        channel: implemented(),
        accountId: implemented(),
        peer: implemented({ kind: implemented(), id: implemented() }),
        guildId: implemented(),
        teamId: implemented(),
        // Read as `channel` with a warning when the binding has none (retired-openclaw-spellings.ts); with both, this error.
        provider: legacy('renamed to bindings[].match.channel'),
        roles: unsupported(),
      }),
      ...unsupportedNames('acp comment session type'),
    }),
  ),

  tools: TOOLS_KEYS,

  session: implemented({
    dmScope: implemented(),
    mainKey: implemented(),
    agentToAgent: implemented({ maxPingPongTurns: implemented() }),
    ...unsupportedNames(`
      groupScope identityLinks idleMinutes maintenance parentForkMaxTokens reset resetByChannel resetByType resetTriggers
      scope sendPolicy sharing store threadBindings typingIntervalSeconds typingMode writeLock`),
  }),

  memory: implemented({
    backend: implemented(),
    citations: implemented(),
    qmd: implemented({
      includeDefaultMemory: implemented(),
      paths: implementedEach('list', implemented({ path: implemented(), name: implemented(), pattern: implemented() })),
      sessions: implemented({ enabled: implemented(), ...unsupportedNames('exportDir retentionDays') }),
      update: implemented({
        debounceMs: implemented(),
        ...unsupportedNames('commandTimeoutMs embedInterval embedTimeoutMs interval onBoot updateTimeoutMs waitForBootSync'),
      }),
      limits: implemented({ maxResults: implemented(), maxSnippetChars: implemented(), ...unsupportedNames('maxInjectedChars timeoutMs') }),
      ...unsupportedNames('command mcporter scope searchMode'),
    }),
    search: unsupported(),
  }),

  models: implemented({
    providers: implementedEach(
      'map',
      implemented({
        api: implemented(),
        baseUrl: implemented(),
        apiKey: implemented(),
        headers: implemented(),
        models: implementedEach(
          'list',
          implemented({
            id: implemented(),
            name: implemented(),
            api: implemented(),
            reasoning: implemented(),
            input: implemented(),
            cost: implemented(),
            contextWindow: implemented(),
            contextTokens: implemented(),
            maxTokens: implemented(),
            ...unsupportedNames('compat headers params'),
          }),
        ),
        ...unsupportedNames(`
          agentRuntime auth authHeader contextWindow injectNumCtxForOpenAICompat localService maxTokens params region
          request sanitizeToolCallIds timeoutSeconds`),
      }),
    ),
    mode: implemented(),
    ...unsupportedNames('authStatus bedrockDiscovery catalogRefresh pricing'),
  }),

  channels: CHANNELS_KEYS,

  plugins: implemented({
    enabled: implemented(),
    allow: implemented(),
    deny: implemented(),
    load: implemented({ paths: implemented() }),
    entries: implementedEach(
      'map',
      implemented({ enabled: implemented(), config: implemented(), ...unsupportedNames('apiKey env hooks llm subagent') }),
    ),
    ...unsupportedNames('bundledDiscovery installs slots'),
  }),

  // OpenClaw's MCP client registry (docs/cli/mcp.md): the servers are clawgate's too (docs/mcp.md); OAuth, TLS and
  // the runtime projections are OpenClaw's.
  mcp: implemented({
    servers: implementedEach(
      'map',
      implemented({
        enabled: implemented(),
        transport: implemented(),
        command: implemented(),
        args: implemented(),
        env: implemented(),
        cwd: implemented(),
        url: implemented(),
        headers: implemented(),
        requestTimeoutMs: implemented(),
        connectionTimeoutMs: implemented(),
        toolFilter: implemented({ include: implemented(), exclude: implemented() }),
        ...unsupportedNames('auth codex oauth supportsParallelToolCalls tls'),
      }),
    ),
    ...unsupportedNames('apps sessionIdleTtlMs'),
  }),

  // ── Sections clawgate does not implement: recognised, reported, not read ──
  ...UNIMPLEMENTED_SECTIONS,

  // ── Old spellings OpenClaw itself no longer accepts ──
  // `clawgate doctor --fix` moves these (legacy-layout-migration.ts).
  agent: legacy('moved to agents.defaults (its tool settings to tools.*); `clawgate doctor --fix` moves it'),
  identity: legacy('moved to agents.list[].identity / agents.entries.<id>.identity; `clawgate doctor --fix` moves it'),
  routing: legacy(
    'moved to bindings, messages.groupChat, messages.queue and channels.whatsapp.allowFrom; `clawgate doctor --fix` moves it',
  ),
  providers: legacy('moved to channels.<id> (chat channels) and models.providers.<id>; `clawgate doctor --fix` moves it'),
  logLevel: legacy('moved to logging.level; `clawgate doctor --fix` moves it'),
  bridge: legacy('removed by OpenClaw (nodes connect over the gateway WebSocket)'),
});
