import {
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
} from 'class-validator';
import { A2A_WIRE_VERSIONS, type A2aWireVersion } from '../../../common/a2a-protocol';
import { CONFIG_DEFAULTS } from '../config-defaults';
import {
  Default,
  Describe,
  IsUrlPatternList,
  NestedMap,
  NestedObject,
  NoUrlCredentials,
  QUOTED_MESSAGE,
  refusedEntries,
  StrictObject,
} from './schema-decorators';

/** Peer and http account names: lowercase, so a name reads the same in a URL, a log line and the config. */
export const PEER_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
/** What a caller may type for a peer name (tool arguments, admin URLs); it is read lowercase. */
export const PEER_NAME_INPUT_PATTERN = PEER_NAME_PATTERN.source.replace(/a-z0-9/g, 'A-Za-z0-9');
const HTTP_URL = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };
/**
 * A media range an operator may accept: `type/subtype`, `type/*`, or an asterisk on both sides for any type
 * (names as RFC 6838 restricts them: a letter or digit, then up to 126 of `A-Za-z0-9!#$&^_.+-`). Compared
 * without regard to case.
 */
export const MEDIA_RANGE_PATTERN = /^(?:\*\/\*|[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/(?:\*|[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}))$/;
/** The validation message of a media type list: it names the entries that are not media ranges. */
const notMediaRanges = refusedEntries(
  (entry) => typeof entry !== 'string' || !MEDIA_RANGE_PATTERN.test(entry),
  (quoted) => `each entry must be a media type such as "text/plain", "text/*" or "*/*" (not ${quoted})`,
);
/** The largest `channels.a2a.files.maxBytes`: the whole request is held in memory while it is read. */
export const MAX_A2A_FILE_BYTES = 16 * 1024 * 1024;

@StrictObject('Files peers may attach to an A2A message (raw and url parts).')
export class A2aFilesConfig {
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_A2A_FILE_BYTES)
  @Describe('Most bytes (decoded) of all raw file parts of one message; 0 refuses every raw part.')
  @Default(CONFIG_DEFAULTS.channels.a2a.files.maxBytes)
  maxBytes?: number;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Matches(MEDIA_RANGE_PATTERN, { each: true, context: { [QUOTED_MESSAGE]: notMediaRanges } })
  @Describe('Media types accepted in file parts: type/subtype, type/* or */*.')
  @Default(CONFIG_DEFAULTS.channels.a2a.files.mediaTypes)
  mediaTypes?: string[];
}

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

  @IsOptional()
  // A bare 1.0 in JSON5 is the number 1: the message says a quoted string is meant.
  @IsIn(A2A_WIRE_VERSIONS, { message: `must be the string ${A2A_WIRE_VERSIONS.map((v) => `"${v}"`).join(' or ')}` })
  @Describe('A2A version we speak to the peer: "1.0" (falls back to 0.3 once if the peer does not know SendMessage) or "0.3".')
  @Default(CONFIG_DEFAULTS.each.a2aPeer.protocolVersion)
  protocolVersion?: A2aWireVersion;

  @IsOptional()
  @IsUrlPatternList()
  @Describe(
    'Push notification URLs this peer may register, as patterns with * wildcards (https://hooks.example.com/a2a/*); none: push refused for this peer.',
  )
  @Default(CONFIG_DEFAULTS.each.a2aPeer.pushUrls)
  pushUrls?: string[];

  @IsOptional()
  @IsBoolean()
  @Describe(
    "Hold this peer's tasks to the budget its messages carry (metadata clawgate/budget: what the caller's work may still spend); false: that metadata is ignored.",
  )
  @Default(CONFIG_DEFAULTS.each.a2aPeer.trustBudget)
  trustBudget?: boolean;
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
  @Min(1000)
  @Max(1800000)
  @Describe('Longest wait of an agent run for the peer’s answer to request_input (the task is INPUT_REQUIRED meanwhile), ms.')
  @Default(CONFIG_DEFAULTS.channels.a2a.inputTimeoutMs)
  inputTimeoutMs?: number;

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

  @IsOptional()
  @NestedObject(() => A2aFilesConfig)
  files?: A2aFilesConfig;
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
