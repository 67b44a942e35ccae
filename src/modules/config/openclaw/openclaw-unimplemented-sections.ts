import { OpenClawKey, unsupported, unsupportedNames } from './openclaw-key-tree';

/**
 * The sections of openclaw.json OpenClaw documents and clawgate does not implement (openclaw-keys.ts):
 * recognised, reported, not read.
 */
export const UNIMPLEMENTED_SECTIONS: Record<string, OpenClawKey> = {
  meta: unsupported(unsupportedNames('lastTouchedAt lastTouchedVersion'), { moreKeys: true }),
  wizard: unsupported(
    unsupportedNames(
      'accessMode appRecommendations lastRunAt lastRunCommand lastRunCommit lastRunMode lastRunVersion securityAcknowledgedAt',
    ),
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
  diagnostics: unsupported(unsupportedNames('cacheTrace enabled flags memoryPressureSnapshot otel stuckSessionAbortMs stuckSessionWarnMs')),
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
};
