import { IsDefined, IsIn, IsInt, IsOptional, IsString, Max, Min, MinLength, IsArray, IsBoolean } from 'class-validator';
import { CONFIG_DEFAULTS } from '../config-defaults';
import { Default, Describe, NestedObject, StrictObject } from './schema-decorators';
import { TOOL_PROFILES, type ToolProfile } from '../normalize/openclaw-tool-catalog';
import { ToolsSandboxConfig, ToolsSubagentsConfig } from './tool-layers.schema';

export const PEER_KINDS = ['direct', 'group', 'channel'] as const;
export const DM_SCOPES = ['main', 'per-peer', 'per-channel-peer', 'per-account-channel-peer'] as const;
export const SESSION_VISIBILITIES = ['self', 'tree', 'agent', 'all'] as const;

@StrictObject()
export class BindingPeerConfig {
  @IsDefined() @IsIn(PEER_KINDS) kind!: (typeof PEER_KINDS)[number];
  @IsDefined() @IsString() @MinLength(1) id!: string;
}

@StrictObject('What an inbound message must carry for the binding to apply.')
export class BindingMatchConfig {
  @IsDefined()
  @IsString()
  @MinLength(1)
  @Describe('Channel id (free-form; e.g. http, a2a, whatsapp).')
  channel!: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @Describe('Account id; "*" matches any account; unset matches only the default account.')
  accountId?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @Describe('Deprecated alias of accountId.')
  account?: string;

  @IsOptional() @NestedObject(() => BindingPeerConfig) peer?: BindingPeerConfig;
  @IsOptional() @IsString() @MinLength(1) guildId?: string;
  @IsOptional() @IsString() @MinLength(1) teamId?: string;
}

@StrictObject('Routes matching inbound messages to an agent.')
export class BindingConfig {
  @IsDefined() @IsString() @MinLength(1) agentId!: string;
  @IsDefined() @NestedObject(() => BindingMatchConfig) match!: BindingMatchConfig;
}

@StrictObject('Agent-to-agent policy (layer 3).')
export class AgentToAgentToolsConfig {
  @IsOptional()
  @IsBoolean()
  @Describe('Must be exactly true for any cross-agent action.')
  @Default(CONFIG_DEFAULTS.tools.agentToAgent.enabled)
  enabled?: boolean;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Describe('Agent id patterns; empty = all; "*" globs are case-insensitive, exact ids case-sensitive.')
  @Default(CONFIG_DEFAULTS.tools.agentToAgent.allow)
  allow?: string[];
}

@StrictObject('Session visibility (layer 2).')
export class SessionsToolsConfig {
  @IsOptional()
  @IsIn(SESSION_VISIBILITIES)
  @Default(CONFIG_DEFAULTS.tools.sessions.visibility)
  visibility?: (typeof SESSION_VISIBILITIES)[number];
}

@StrictObject()
export class ToolsConfig {
  @IsOptional() @NestedObject(() => AgentToAgentToolsConfig) agentToAgent?: AgentToAgentToolsConfig;
  @IsOptional() @NestedObject(() => SessionsToolsConfig) sessions?: SessionsToolsConfig;

  @IsOptional()
  @IsIn(TOOL_PROFILES)
  @Describe("OpenClaw's tool profile for every agent (an agent's own tools.profile wins): minimal, coding, messaging or full (no restriction).")
  profile?: ToolProfile;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Describe('Tools every agent may use (empty or unset: all); names, group:<name>, * patterns. Agents narrow it further.')
  allow?: string[];

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Describe('Tools no agent may use (deny wins); names, group:<name>, * patterns.')
  deny?: string[];

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Describe('Tools added to tools.profile (not with tools.allow).')
  alsoAllow?: string[];
  @IsOptional()
  @NestedObject(() => ToolsSandboxConfig)
  @Describe("Tool policy of sandboxed sessions (agents.*.sandbox.mode), for every agent without its own tools.sandbox.")
  sandbox?: ToolsSandboxConfig;

  @IsOptional()
  @NestedObject(() => ToolsSubagentsConfig)
  @Describe('Tool policy of sessions started by sessions_spawn.')
  subagents?: ToolsSubagentsConfig;
}

@StrictObject()
export class SessionAgentToAgentConfig {
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(5)
  @Describe('Reply turns after the first answer; 0 disables ping-pong.')
  @Default(CONFIG_DEFAULTS.session.agentToAgent.maxPingPongTurns)
  maxPingPongTurns?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(32)
  @Describe('Longest chain of sessions_send hops.')
  @Default(CONFIG_DEFAULTS.session.agentToAgent.maxChainHops)
  maxChainHops?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  @Describe('Finished sessions_send exchanges whose outcome is kept (GET /admin/runs/{runId}, session_status); the oldest go first.')
  @Default(CONFIG_DEFAULTS.session.agentToAgent.keptExchanges)
  keptExchanges?: number;
}

@StrictObject()
export class SessionConfig {
  @IsOptional()
  @IsIn(DM_SCOPES)
  @Default(CONFIG_DEFAULTS.session.dmScope)
  dmScope?: (typeof DM_SCOPES)[number];

  @IsOptional()
  @IsString()
  @MinLength(1)
  @Describe('Name of the main session.')
  @Default(CONFIG_DEFAULTS.session.mainKey)
  mainKey?: string;

  @IsOptional() @NestedObject(() => SessionAgentToAgentConfig) agentToAgent?: SessionAgentToAgentConfig;
}
