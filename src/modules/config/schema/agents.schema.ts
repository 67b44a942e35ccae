import { IsArray, IsBoolean, IsDefined, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { CONFIG_DEFAULTS } from '../config-defaults';
import type { SandboxMode } from '../config.types';
import { IsModelSetting, MODEL_ALIAS_PATTERN, MODEL_SETTING_SCHEMA, type ModelSettingConfig } from './model-setting';
import { Default, Describe, NestedArray, NestedMap, NestedObject, StrictObject } from './schema-decorators';
import { TOOL_PROFILES, type ToolProfile } from '../normalize/openclaw-tool-catalog';
import { ToolsSandboxConfig } from './tool-layers.schema';

export { MODEL_REF_PATTERN } from './model-setting';
/** A key of agents.defaults.models: `provider/model`, or `provider/*` for every model of a provider. */
export const MODEL_ENTRY_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*\/\S+$/;

@StrictObject('A directory of files an agent may search (read-only).')
export class MemoryCollectionConfig {
  @IsDefined()
  @IsString()
  @MinLength(1)
  @Describe('Directory (relative to the agent workspace, absolute, or ~/...).')
  path!: string;

  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/)
  @Describe('Collection name; required when the path lies outside the agent workspace.')
  name?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @Describe(
    'Glob of files to index; when unset, an extra collection on a session directory also indexes its <sessionId>.jsonl transcripts (read from the session store for a session directory of this state dir).',
  )
  @Default(CONFIG_DEFAULTS.each.memoryCollection.pattern)
  pattern?: string;
}

@StrictObject()
export class AgentQmdSearchConfig {
  @IsOptional()
  @NestedArray(() => MemoryCollectionConfig)
  @Describe('Extra collections this agent may search, directionally and read-only.')
  @Default(CONFIG_DEFAULTS.agents.defaults.memorySearch.qmd.extraCollections)
  extraCollections?: MemoryCollectionConfig[];
}

@StrictObject()
export class AgentMemorySearchConfig {
  @IsOptional()
  @NestedObject(() => AgentQmdSearchConfig)
  qmd?: AgentQmdSearchConfig;
}

@StrictObject()
export class AgentIdentityConfig {
  @IsOptional() @IsString() @MaxLength(200) name?: string;
  @IsOptional() @IsString() @MaxLength(32) emoji?: string;
  @IsOptional() @IsString() @MaxLength(2048) avatar?: string;
}

@StrictObject()
export class AgentSandboxConfig {
  @IsOptional()
  @IsIn(['off', 'non-main', 'all'])
  @Describe(
    'Which sessions of the agent run sandboxed: a sandboxed session only sees sessions it spawned, cannot reach other agents and gets the tools of tools.sandbox. all: every session; non-main: every session but the agent\'s main one (OpenClaw\'s modes).',
  )
  @Default(CONFIG_DEFAULTS.agents.defaults.sandbox.mode)
  mode?: SandboxMode;

  @IsOptional()
  @IsIn(['session', 'agent', 'shared'])
  scope?: 'session' | 'agent' | 'shared';
}

@StrictObject()
export class AgentToolsConfig {
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Describe('Tool names the agent may use (empty or unset: all).')
  @Default(CONFIG_DEFAULTS.agents.defaults.tools.allow)
  allow?: string[];

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Describe('Tool names the agent may not use (deny wins over allow).')
  @Default(CONFIG_DEFAULTS.agents.defaults.tools.deny)
  deny?: string[];

  @IsOptional()
  @IsIn(TOOL_PROFILES)
  @Describe("OpenClaw's tool profile of this agent, instead of tools.profile: minimal, coding, messaging or full.")
  profile?: ToolProfile;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Describe("Tools added to the agent's profile (not with allow).")
  alsoAllow?: string[];
  @IsOptional()
  @NestedObject(() => ToolsSandboxConfig)
  @Describe("Tool policy of this agent's sandboxed sessions; replaces tools.sandbox for the agent.")
  sandbox?: ToolsSandboxConfig;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @Describe(
    'Tools whose every call waits for an operator to approve it (names, `group:<name>`, `*` patterns such as `mcp:files:*`); the run pauses meanwhile, an A2A task shows INPUT_REQUIRED.',
  )
  @Default(CONFIG_DEFAULTS.agents.defaults.tools.requiresApproval)
  requiresApproval?: string[];

  @IsOptional()
  @IsInt()
  @Min(1000)
  @Max(604_800_000)
  @Describe('How long a call that needs approval waits for a decision before it counts as denied, ms (1 s – 7 days).')
  @Default(CONFIG_DEFAULTS.agents.defaults.tools.approvalTimeoutMs)
  approvalTimeoutMs?: number;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Matches(/^[a-z0-9][a-z0-9_-]*:\S+$/, { each: true, message: 'each entry must be <channel>:<sender id>, e.g. telegram:123456789' })
  @Describe(
    'Chat senders who may decide this agent\'s approvals from the chat the request came from (`/approve <id>`, `/deny <id> [reason]`), as <channel>:<sender id>; nobody else in a chat can.',
  )
  @Default(CONFIG_DEFAULTS.agents.defaults.tools.approvers)
  approvers?: string[];
}

@StrictObject('A model of agents.defaults.models (OpenClaw\'s model catalog and allowlist).')
export class AgentModelEntryConfig {
  @IsOptional()
  @IsString()
  @Matches(MODEL_ALIAS_PATTERN, { message: 'must be a name of at most 64 characters without "/"' })
  @Describe('A short name usable wherever a model reference is (model, primary, fallbacks).')
  alias?: string;
}

/** Fields shared by `agents.defaults` and every agent entry. */
/** OpenClaw's `subagents` of an agent (and of agents.defaults): the limits of the tree of sessions it spawns. */
@StrictObject()
export class AgentSubagentsConfig {
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(5)
  @Describe(
    'How deep sessions_spawn may nest: a main session is depth 0, a spawned one its parent\'s depth + 1; a session at this depth cannot spawn (1–5).',
  )
  @Default(CONFIG_DEFAULTS.agents.defaults.subagents.maxSpawnDepth)
  maxSpawnDepth?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(20)
  @Describe('How many spawned sessions of one session may be active (a run queued or running) at once (1–20).')
  @Default(CONFIG_DEFAULTS.agents.defaults.subagents.maxChildrenPerAgent)
  maxChildrenPerAgent?: number;
}

@StrictObject()
export class AgentSharedConfig {
  @IsOptional()
  @IsModelSetting()
  @Describe(
    '"provider/model" (or an alias), or { primary, fallbacks }: when the primary fails (429, 5xx, timeout, unreachable), the fallbacks are tried in order.',
    MODEL_SETTING_SCHEMA,
  )
  @Default(CONFIG_DEFAULTS.agents.defaults.model)
  model?: ModelSettingConfig;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @Describe('In defaults: the parent dir of agent workspaces (the id is appended).')
  workspace?: string;

  @IsOptional()
  @NestedObject(() => AgentMemorySearchConfig)
  memorySearch?: AgentMemorySearchConfig;

  @IsOptional()
  @NestedObject(() => AgentSandboxConfig)
  sandbox?: AgentSandboxConfig;

  @IsOptional()
  @NestedObject(() => AgentToolsConfig)
  tools?: AgentToolsConfig;

  @IsOptional()
  @NestedObject(() => AgentSubagentsConfig)
  @Describe("Limits of the sessions this agent spawns (sessions_spawn); an agent's own replace agents.defaults' key by key.")
  subagents?: AgentSubagentsConfig;
}

/** `agents.defaults`: what every agent inherits, and the model catalog. */
@StrictObject()
export class AgentDefaultsConfig extends AgentSharedConfig {
  @IsOptional()
  @NestedMap(
    () => AgentModelEntryConfig,
    'AgentModelEntryConfig',
    MODEL_ENTRY_KEY_PATTERN,
    '"provider/model" → { alias }: the aliases, and the models OpenClaw lets /model and session overrides pick.',
  )
  models?: Map<string, AgentModelEntryConfig>;
}

@StrictObject('An agent in the map form `agents.entries.<id>`. Fields it leaves unset come from agents.defaults.')
export class AgentMapEntryConfig extends AgentSharedConfig {
  @IsOptional() @IsBoolean() @Default(CONFIG_DEFAULTS.each.agent.default) default?: boolean;
  @IsOptional() @IsString() @MaxLength(200) name?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(1000)
  @Describe('What the agent does, for A2A peers: published only on the extended Agent Card of the peers that can reach it.')
  description?: string;

  @IsOptional() @IsString() @MinLength(1) agentDir?: string;
  @IsOptional()
  @NestedObject(() => AgentIdentityConfig)
  @Default(CONFIG_DEFAULTS.each.agent.identity)
  identity?: AgentIdentityConfig;
}

@StrictObject('An agent: an isolated workspace, state dir, session store and model. Fields it leaves unset come from agents.defaults.')
export class AgentEntryConfig extends AgentMapEntryConfig {
  @IsDefined()
  @IsString()
  @MaxLength(256)
  @Describe('Agent id; normalized to lowercase [a-z0-9_-], max 64.')
  id!: string;
}

@StrictObject()
export class AgentsConfig {
  @IsOptional()
  @NestedObject(() => AgentDefaultsConfig)
  defaults?: AgentDefaultsConfig;

  @IsOptional()
  @NestedArray(() => AgentEntryConfig)
  @Default(CONFIG_DEFAULTS.agents.list)
  list?: AgentEntryConfig[];

  @IsOptional()
  @NestedMap(() => AgentMapEntryConfig, 'AgentMapEntryConfig', undefined, 'Map form: agent id → entry.')
  entries?: Map<string, AgentMapEntryConfig>;
}
