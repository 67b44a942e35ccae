import {
  implemented,
  implementedEach,
  chatChannels,
  partlyProvidedChatChannel,
  legacy,
  OpenClawKey,
  refused,
  unsupported,
  unsupportedNames,
} from './openclaw-key-tree';

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

/** Why tool policies stay errors until clawgate maps them onto its own (agents.*.tools.allow/deny). */
const TOOL_POLICY = "an OpenClaw tool policy; ignoring it could give agents tools it takes away (clawgate's own: agents.*.tools.allow / deny)";

/** `tools.sandbox.tools` and an agent's `tools.sandbox.tools`: narrows sandboxed sessions' tools (openclaw-tool-policy.ts). */
const sandboxTools = implemented({
  tools: implemented({ allow: implemented(), deny: implemented(), alsoAllow: implemented() }),
});

/** Fields of `agents.defaults` and of each agent that OpenClaw documents and clawgate does not use. */
const AGENT_FIELDS_UNSUPPORTED = unsupportedNames(`
  agentRuntime bootstrapMaxChars bootstrapTotalMaxChars contextInjection contextLimits embeddedHarness experimental
  fastModeDefault heartbeat params reasoningDefault runRetries skills thinkingDefault tts typingMode
  utilityModel`);

/**
 * `subagents` of agents.defaults and of an agent: the two limits of the spawn tree are clawgate's (docs/sessions.md#spawn-limits);
 * the model, timeouts, announce and concurrency settings of OpenClaw's sub-agents are not.
 */
const agentSubagents = implemented({
  maxSpawnDepth: implemented(),
  maxChildrenPerAgent: implemented(),
  ...unsupportedNames(`
    allowAgents announceTimeoutMs archiveAfterMinutes delegationPolicy maxConcurrent model requireAgentId runTimeoutSeconds
    thinking`),
});

/** `model`: a string, or `{ primary, fallbacks }`; the schema checks the object form's keys. */
const agentModel = implemented();

const agentMemorySearch = implemented({
  qmd: implemented({ extraCollections: implementedEach('list', implemented({ path: implemented(), name: implemented() })) }),
  ...unsupportedNames(`
    cache chunking documentInputType enabled experimental extraPaths fallback local model multimodal outputDimensionality
    provider query queryInputType remote sources store sync`),
});

const agentSandbox = implemented({
  mode: implemented(),
  scope: implemented(),
  ...unsupportedNames('backend browser docker perSession prune ssh workspaceAccess workspaceRoot'),
});

const agentTools = implemented({
  allow: implemented(),
  deny: implemented(),
  profile: implemented(),
  alsoAllow: implemented(),
  byProvider: refused(TOOL_POLICY),
  sandbox: sandboxTools,
  sessions: refused("a per-agent session visibility; ignoring it could let the agent see sessions it hides (clawgate's: tools.sessions.visibility)"),
  ...unsupportedNames('elevated exec fs github loopDetection media message swarm web'),
});

/** An agent, in `agents.list[]` or `agents.entries.<id>` (`id` only in the list form). */
const agent = (listForm: boolean): OpenClawKey =>
  implemented({
    ...(listForm ? { id: implemented() } : {}),
    default: implemented(),
    name: implemented(),
    workspace: implemented(),
    agentDir: implemented(),
    model: agentModel,
    identity: implemented({ name: implemented(), emoji: implemented(), avatar: implemented(), theme: unsupported() }),
    memorySearch: agentMemorySearch,
    sandbox: agentSandbox,
    tools: agentTools,
    subagents: agentSubagents,
    ...AGENT_FIELDS_UNSUPPORTED,
    // An agent's own model catalog (newer OpenClaw): clawgate's aliases are those of agents.defaults.models.
    ...unsupportedNames('groupChat memory models runtime skillsLimits'),
  });

const agentDefaults = implemented({
  model: agentModel,
  // The model catalog: aliases are read; per-model request settings are OpenClaw's.
  models: implementedEach('map', implemented({ alias: implemented(), ...unsupportedNames('agentRuntime params streaming') })),
  workspace: implemented(),
  memorySearch: agentMemorySearch,
  sandbox: agentSandbox,
  subagents: agentSubagents,
  ...AGENT_FIELDS_UNSUPPORTED,
  ...unsupportedNames(`
    blockStreamingBreak blockStreamingChunk blockStreamingCoalesce blockStreamingDefault bootstrapPromptTruncationWarning
    cliBackends compaction contextPruning contextTokens elevatedDefault embeddedAgent envelopeElapsed envelopeTimestamp
    envelopeTimezone humanDelay imageGenerationModel imageMaxDimensionPx imageModel imageQuality llm maxConcurrent
    mediaGenerationAutoProviderFallback mediaMaxMb mediaModels modelPolicy musicGenerationModel pdfMaxBytesMb pdfMaxMb
    pdfMaxPages pdfModel promptOverlays repoRoot silentReply skipBootstrap skipOptionalBootstrapFiles startupContext
    systemAgent systemPromptOverride timeFormat timeoutSeconds toolProgressDetail typingIntervalSeconds userTimezone
    verboseDefault videoGenerationModel`),
});

/** The chat channels OpenClaw documents (bundled, and the external ones of its catalog). */
const CHAT_CHANNELS = {
  ...chatChannels(`
  bluebubbles buzz clickclack discord feishu googlechat imessage irc line matrix mattermost msteams nextcloud-talk nostr
  openclaw-weixin qqbot raft reef signal slack sms synology-chat telegram tlon twitch wecom whatsapp yuanbao zalo zalouser`),
  // OpenClaw's Telegram keys the bundled Telegram plugin (src/bundled-plugins/telegram) does not implement.
  telegram: partlyProvidedChatChannel(`
    ackReaction actions blockStreaming blockStreamingCoalesce capabilities chunkMode commands configWrites customCommands
    defaultAccount dmHistoryLimit dms draftChunk execApprovals heartbeat historyLimit linkPreview markdown mediaMaxMb name
    network proxy reactionLevel reactionNotifications replyToMode responsePrefix retry richMessages streamMode streaming
    textChunkLimit timeoutSeconds tokenFile webhookHost`),
  // OpenClaw's Discord keys the bundled Discord plugin (src/bundled-plugins/discord) does not implement.
  discord: partlyProvidedChatChannel(
    `
    actions activity activityType activityUrl agentComponents applicationId autoPresence blockStreaming
    blockStreamingCoalesce capabilities chunkMode commands configWrites contextVisibility defaultAccount dm dmHistoryLimit
    dms draftChunk eventQueue execApprovals heartbeat historyLimit inboundWorker intents markdown maxLinesPerMessage
    mediaMaxMb mentionPatterns name pluralkit proxy reactionNotifications replyToMode responsePrefix retry status streaming
    textChunkLimit threadBindings tokenFile ui voice`,
    {
      guilds: implementedEach(
        'map',
        implemented({
          ...unsupportedNames('slug ignoreOtherMentions reactionNotifications tools toolsBySender autoThread includeThreadStarter'),
          roles: refused("a guild's role allowlist; ignoring it would let every member reach the agent (use the guild's users)"),
          channels: implementedEach(
            'map',
            implemented({
              ...unsupportedNames('skills systemPrompt tools toolsBySender autoThread includeThreadStarter ignoreOtherMentions'),
              roles: refused("a channel's role allowlist; ignoring it would let every member reach the agent (use the channel's users)"),
            }),
          ),
        }),
      ),
    },
  ),
  // OpenClaw's Slack keys the bundled Slack plugin (src/bundled-plugins/slack) does not implement.
  slack: partlyProvidedChatChannel(
    `
    ackReaction actions blockStreaming blockStreamingCoalesce capabilities chunkMode commands configWrites defaultAccount dm
    dmHistoryLimit heartbeat historyLimit markdown mediaMaxMb name nativeStreaming reactionAllowlist reactionNotifications
    relay replyToMode replyToModeByChatType responsePrefix slashCommand streamMode streaming textChunkLimit userToken
    userTokenReadOnly webhookPath`,
    {
      // Slack's allowed channels (the gateway's `groups`): their mention and enabled settings are implemented.
      channels: implementedEach(
        'map',
        implemented({
          allowBots: unsupported(),
          skills: unsupported(),
          systemPrompt: unsupported(),
          tools: unsupported(),
          toolsBySender: unsupported(),
          users: refused(
            "a per-channel user allowlist; ignoring it would let every member of the channel reach the agent (clawgate's: the section's groupAllowFrom)",
          ),
        }),
      ),
    },
  ),
};

export const OPENCLAW_KEYS: OpenClawKey = implemented({
  $schema: implemented(),

  // ── Sections clawgate implements, with the OpenClaw keys inside them it does not ──
  gateway: implemented({
    port: implemented(),
    bind: implemented(),
    trustedProxies: implemented(),
    reload: implemented({ mode: implemented(), debounceMs: implemented(), deferralTimeoutMs: unsupported() }),
    http: implemented({
      endpoints: implemented({
        chatCompletions: implemented({ enabled: implemented(), images: unsupported() }),
        responses: unsupported(),
      }),
      securityHeaders: unsupported(),
    }),
    mode: implemented(),
    customBindHost: implemented(),
    auth: implemented({
      mode: implemented(),
      token: implemented(),
      password: implemented(),
      trustedProxy: implemented({
        userHeader: implemented(),
        allowLoopback: implemented(),
        requiredHeaders: refused('ignoring it would believe requests without the headers it requires of the proxy'),
        allowUsers: refused('ignoring it would let in every user the proxy authenticates, not only those listed'),
        deviceAutoApprove: unsupported(),
      }),
      // Tailscale identity serves OpenClaw's Control UI and WebSocket, which clawgate does not have; ignoring it admits nobody.
      allowTailscale: unsupported(),
      identityScopes: unsupported(),
      // clawgate compares admin tokens by digest; a failed-auth limiter is defense in depth it does not have (docs/admin-security.md).
      rateLimit: unsupported(unsupportedNames('exemptLoopback lockoutMs maxAttempts windowMs')),
    }),
    tls: implemented({
      enabled: implemented(),
      autoGenerate: implemented(),
      certPath: implemented(),
      keyPath: implemented(),
      caPath: implemented(),
    }),
    webchat: legacy('removed by OpenClaw (WebChat is retired)'),
    ...unsupportedNames(`
      allowRealIpFallback channelHealthCheckMinutes channelMaxRestartsPerHour channelStaleEventThresholdMinutes cliAgents
      controlUi handshakeTimeoutMs identity nodes publicOrigin push remote tailscale terminal tools`),
  }),

  agents: implemented({
    defaults: agentDefaults,
    list: implementedEach('list', agent(true)),
    entries: implementedEach('map', agent(false)),
    ownership: unsupported(),
  }),

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

  tools: implemented({
    agentToAgent: implemented({ enabled: implemented(), allow: implemented() }),
    sessions: implemented({ visibility: implemented() }),
    profile: implemented(),
    allow: implemented(),
    deny: implemented(),
    alsoAllow: implemented(),
    byProvider: refused(TOOL_POLICY),
    sandbox: sandboxTools,
    subagents: implemented({ tools: implemented({ allow: implemented(), deny: implemented() }) }),
    toolsBySender: refused(TOOL_POLICY),
    ...unsupportedNames(`
      codeMode elevated exec experimental fs github loopDetection media message sessions_spawn swarm toolSearch updatePlan
      web`),
  }),

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

  // A chat channel is a plugin's (its manifest's channelConfigs); one no plugin provides loads with a warning.
  // clawgate's own (a2a, http) are the schema's.
  channels: implemented({ ...CHAT_CHANNELS, ...unsupportedNames('defaults modelByChannel') }, { pluginChannels: true }),

  plugins: implemented({
    enabled: implemented(),
    allow: implemented(),
    deny: implemented(),
    load: implemented({ paths: implemented() }),
    entries: implementedEach('map', implemented({ enabled: implemented(), config: implemented(), ...unsupportedNames('apiKey env hooks llm subagent') })),
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
  meta: unsupported(unsupportedNames('lastTouchedAt lastTouchedVersion'), { moreKeys: true }),
  wizard: unsupported(
    unsupportedNames('accessMode appRecommendations lastRunAt lastRunCommand lastRunCommit lastRunMode lastRunVersion securityAcknowledgedAt'),
    { moreKeys: true },
  ),
  env: unsupported(unsupportedNames('shellEnv vars'), { moreKeys: true }),
  auth: unsupported(unsupportedNames('cooldowns order profiles')),
  secrets: unsupported(unsupportedNames('defaults egressProxy providers resolution')),
  skills: unsupported(unsupportedNames('allowBundled entries install limits load workshop')),
  acp: unsupported(unsupportedNames('allowedAgents backend defaultAgent dispatch enabled fallbacks maxConcurrentSessions runtime stream')),
  messages: unsupported(
    unsupportedNames(`
      ackReaction ackReactionScope groupChat inbound messagePrefix queue removeAckAfterReply responsePrefix responseUsage
      statusReactions suppressToolErrors tts usageTemplate visibleReplies`),
  ),
  commands: unsupported(
    unsupportedNames(`
      allowFrom bash bashForegroundMs config debug mcp modelsWrite native nativeSkills ownerAllowFrom ownerDisplay
      ownerDisplaySecret plugins restart text useAccessGroups`),
  ),
  approvals: unsupported(unsupportedNames('exec plugin')),
  hooks: unsupported(
    unsupportedNames(`
      allowRequestSessionKey allowedAgentIds allowedSessionKeyPrefixes defaultSessionKey enabled gmail internal mappings
      maxBodyBytes path presets timeoutMs token transformsDir`),
  ),
  cron: unsupported(
    unsupportedNames(`
      enabled failureAlert failureDestination maxConcurrentRuns retry runLog sessionRetention store triggers webhook
      webhookSsrfPolicy webhookToken`),
  ),
  logging: unsupported(unsupportedNames('audit consoleLevel consoleStyle file level maxFileBytes redactPatterns redactSensitive')),
  diagnostics: unsupported(
    unsupportedNames('cacheTrace enabled flags memoryPressureSnapshot otel stuckSessionAbortMs stuckSessionWarnMs'),
  ),
  update: unsupported(unsupportedNames('auto channel checkOnStart')),
  browser: unsupported(
    unsupportedNames(`
      actionTimeoutMs allowSystemProfileImport attachOnly cdpPort cdpUrl color controlPort defaultProfile enabled
      evaluateEnabled executablePath extensionRelay extraArgs headless localCdpReadyTimeoutMs localLaunchTimeoutMs noSandbox
      profiles relayBindHost remoteCdpHandshakeTimeoutMs remoteCdpTimeoutMs snapshotDefaults ssrfPolicy tabCleanup`),
  ),
  ui: unsupported(unsupportedNames('assistant prefs seamColor')),
  talk: unsupported(
    unsupportedNames(`
      agentId apiKey consultFastMode consultThinkingLevel interruptOnSpeech modelId outputFormat provider providers realtime
      silenceTimeoutMs speechLocale voiceAliases voiceId`),
  ),
  tts: unsupported(
    unsupportedNames('auto maxTextLength mode modelOverrides persona personas prefsPath provider providers summaryModel timeoutMs'),
  ),
  web: unsupported(unsupportedNames('enabled heartbeatSeconds reconnect whatsapp')),
  discovery: unsupported(unsupportedNames('mdns wideArea')),
  canvasHost: unsupported(unsupportedNames('enabled liveReload root')),
  broadcast: unsupported(),
  accessGroups: unsupported(),
  audit: unsupported(unsupportedNames('activity enabled messages')),
  commitments: unsupported(unsupportedNames('enabled maxPerDay')),
  security: unsupported(unsupportedNames('audit installPolicy')),
  nodeHost: unsupported(unsupportedNames('agentRuns browserProxy mcp skills workerRuns')),
  cloudWorkers: unsupported(unsupportedNames('profiles projectProfiles')),
  desktop: unsupported(unsupportedNames('host')),
  worktrees: unsupported(unsupportedNames('cleanup create')),
  cli: unsupported(unsupportedNames('banner')),

  // ── Old spellings OpenClaw itself no longer accepts ──
  // `clawgate doctor --fix` moves these (legacy-layout-migration.ts).
  agent: legacy('moved to agents.defaults (its tool settings to tools.*); `clawgate doctor --fix` moves it'),
  identity: legacy('moved to agents.list[].identity / agents.entries.<id>.identity; `clawgate doctor --fix` moves it'),
  routing: legacy('moved to bindings, messages.groupChat, messages.queue and channels.whatsapp.allowFrom; `clawgate doctor --fix` moves it'),
  providers: legacy('moved to channels.<id> (chat channels) and models.providers.<id>; `clawgate doctor --fix` moves it'),
  logLevel: legacy('moved to logging.level; `clawgate doctor --fix` moves it'),
  bridge: legacy('removed by OpenClaw (nodes connect over the gateway WebSocket)'),
});
