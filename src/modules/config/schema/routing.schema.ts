import { IsDefined, IsIn, IsInt, IsOptional, IsString, Max, Min, MinLength, IsArray, IsBoolean } from 'class-validator';
import { Describe, NestedObject, StrictObject } from './schema-decorators';

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
  @IsDefined() @IsString() @MinLength(1)
  @Describe('Channel id (free-form; e.g. http, a2a, whatsapp).')
  channel!: string;

  @IsOptional() @IsString() @MinLength(1)
  @Describe('Account id; "*" matches any account; unset matches only the default account.')
  accountId?: string;

  @IsOptional() @IsString() @MinLength(1)
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
  @IsOptional() @IsBoolean()
  @Describe('Must be exactly true for any cross-agent action [false].')
  enabled?: boolean;

  @IsOptional() @IsArray() @IsString({ each: true })
  @Describe('Agent id patterns; empty = all; "*" globs are case-insensitive, exact ids case-sensitive.')
  allow?: string[];
}

@StrictObject('Session visibility (layer 2).')
export class SessionsToolsConfig {
  @IsOptional() @IsIn(SESSION_VISIBILITIES) visibility?: (typeof SESSION_VISIBILITIES)[number];
}

@StrictObject()
export class ToolsConfig {
  @IsOptional() @NestedObject(() => AgentToAgentToolsConfig) agentToAgent?: AgentToAgentToolsConfig;
  @IsOptional() @NestedObject(() => SessionsToolsConfig) sessions?: SessionsToolsConfig;
}

@StrictObject()
export class SessionAgentToAgentConfig {
  @IsOptional() @IsInt() @Min(0) @Max(5)
  @Describe('Reply turns after the first answer [5]; 0 disables ping-pong.')
  maxPingPongTurns?: number;

  @IsOptional() @IsInt() @Min(1) @Max(32)
  @Describe('Longest chain of sessions_send hops [8].')
  maxChainHops?: number;
}

@StrictObject()
export class SessionConfig {
  @IsOptional() @IsIn(DM_SCOPES) dmScope?: (typeof DM_SCOPES)[number];

  @IsOptional() @IsString() @MinLength(1)
  @Describe('Name of the main session [main].')
  mainKey?: string;

  @IsOptional() @NestedObject(() => SessionAgentToAgentConfig) agentToAgent?: SessionAgentToAgentConfig;
}
