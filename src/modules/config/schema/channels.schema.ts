import { IsArray, IsBoolean, IsDefined, IsInt, IsOptional, IsString, IsUrl, Max, Min, MinLength } from 'class-validator';
import { CONFIG_DEFAULTS } from '../config-defaults';
import { Default, Describe, NestedMap, NestedObject, NoUrlCredentials, StrictObject } from './schema-decorators';

/** Peer and http account names: lowercase, so a name reads the same in a URL, a log line and the config. */
export const PEER_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
/** What a caller may type for a peer name (tool arguments, admin URLs); it is read lowercase. */
export const PEER_NAME_INPUT_PATTERN = PEER_NAME_PATTERN.source.replace(/a-z0-9/g, 'A-Za-z0-9');
const HTTP_URL = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };

@StrictObject('A trusted A2A peer.')
export class A2aPeerConfig {
  @IsDefined()
  @IsString()
  @MinLength(1)
  @Describe('Bearer token this peer presents to us. Use ${VAR}.')
  token!: string;

  @IsOptional()
  @NoUrlCredentials('put the token we present in outboundToken')
  @IsUrl(HTTP_URL)
  @Describe("The peer's JSON-RPC endpoint, for outbound messages.")
  url?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @Describe('Bearer token we present to the peer.')
  outboundToken?: string;
}

@StrictObject('Inbound A2A v1.0 channel.')
export class A2aChannelConfig {
  @IsOptional()
  @IsBoolean()
  @Default(CONFIG_DEFAULTS.channels.a2a.enabled)
  enabled?: boolean;

  @IsOptional()
  @NoUrlCredentials('it is published in the Agent Card')
  @IsUrl(HTTP_URL)
  @Describe('Public origin published in the Agent Card [derived from the request].')
  advertisedUrl?: string;

  @IsOptional()
  @IsInt()
  @Min(5000)
  @Max(600000)
  @Describe('Longest blocking wait for a reply, ms.')
  @Default(CONFIG_DEFAULTS.channels.a2a.replyTimeoutMs)
  replyTimeoutMs?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Describe('JSON-RPC entries per peer per sliding minute; 0 = off.')
  @Default(CONFIG_DEFAULTS.channels.a2a.rateLimitPerMinute)
  rateLimitPerMinute?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  @Describe("Finished tasks kept per peer (ListTasks, GetTask); the oldest go first.")
  @Default(CONFIG_DEFAULTS.channels.a2a.keptTasksPerPeer)
  keptTasksPerPeer?: number;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Describe('Agent ids published as skills [all].')
  exposeAgents?: string[];

  @IsOptional()
  @NestedMap(() => A2aPeerConfig, 'A2aPeerConfig', PEER_NAME_PATTERN)
  @Default(CONFIG_DEFAULTS.channels.a2a.peers)
  peers?: Map<string, A2aPeerConfig>;
}

@StrictObject()
export class HttpAccountConfig {
  @IsDefined()
  @IsString()
  @MinLength(1)
  @Describe('Bearer token of this account; also the webhook signing key.')
  token!: string;

  @IsOptional()
  @NoUrlCredentials('deliveries are signed with the account token (X-Clawgate-Signature); the receiver checks the signature')
  @IsUrl(HTTP_URL)
  webhookUrl?: string;
}

@StrictObject('Generic HTTP integration channel.')
export class HttpChannelConfig {
  @IsOptional()
  @IsBoolean()
  @Default(CONFIG_DEFAULTS.channels.http.enabled)
  enabled?: boolean;

  @IsOptional()
  @NestedMap(() => HttpAccountConfig, 'HttpAccountConfig', PEER_NAME_PATTERN)
  @Default(CONFIG_DEFAULTS.channels.http.accounts)
  accounts?: Map<string, HttpAccountConfig>;
}

@StrictObject()
export class ChannelsConfig {
  @IsOptional() @NestedObject(() => A2aChannelConfig) a2a?: A2aChannelConfig;
  @IsOptional() @NestedObject(() => HttpChannelConfig) http?: HttpChannelConfig;
}
