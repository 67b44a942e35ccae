import { implemented, implementedEach, OpenClawKey, refused, unsupported, unsupportedNames } from './openclaw-key-tree';
import { sandboxTools, TOOL_POLICY } from './openclaw-tool-keys';

/** OpenClaw's `agents` section (openclaw-keys.ts): the defaults, and each agent in its list or map form. */

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
  sessions: refused(
    "a per-agent session visibility; ignoring it could let the agent see sessions it hides (clawgate's: tools.sessions.visibility)",
  ),
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

/** `agents`: the defaults every agent starts from, and the agents as a list (`agents.list[]`) or a map (`agents.entries`). */
export const AGENTS_KEYS: OpenClawKey = implemented({
  defaults: agentDefaults,
  list: implementedEach('list', agent(true)),
  entries: implementedEach('map', agent(false)),
  ownership: unsupported(),
});
