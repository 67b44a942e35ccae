import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsDefined, IsInt, IsOptional, IsString, Matches, Min, MinLength } from 'class-validator';
import { CONFIG_DEFAULTS } from '../config-defaults';
import { Default, Describe, NestedArray, NestedObject, StrictObject } from './schema-decorators';

/** Key names: shown in logs and the audit of who called; the same alphabet as peer and account names. */
export const ENDPOINT_KEY_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

@StrictObject('A bearer key of an agent endpoint (chatCompletions, mcp) and the agents it may use.')
export class EndpointKeyConfig {
  @IsDefined()
  @IsString()
  @Matches(ENDPOINT_KEY_NAME_PATTERN, { message: 'must match ^[a-z0-9][a-z0-9._-]{0,63}$' })
  @Describe('Who holds the key; named in logs and rate limits, never the token.')
  name!: string;

  @IsDefined()
  @IsString()
  @MinLength(1)
  @Describe('The bearer token clients send as their API key. Use ${VAR}; each key needs its own.')
  token!: string;

  @IsDefined()
  @IsArray()
  @ArrayMinSize(1, { message: 'must name at least one agent or pattern ("*" for every agent)' })
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @Describe('Agent ids or patterns (`*` any run of characters, as in tools.agentToAgent.allow) this key may use.')
  agents!: string[];
}

/**
 * The key model the agent endpoints share (docs/openai-endpoint.md, docs/mcp.md): on or off, bearer keys each
 * reaching some agents, a rate per key. Each endpoint is a subclass with its own description.
 */
export class KeyedEndpointConfig {
  @IsOptional()
  @NestedArray(() => EndpointKeyConfig)
  @Default(CONFIG_DEFAULTS.gateway.http.endpoints.chatCompletions.keys)
  keys?: EndpointKeyConfig[];

  @IsOptional()
  @IsInt()
  @Min(0)
  @Describe('Requests per key in a sliding 60-second window; 0 turns the limit off.')
  @Default(CONFIG_DEFAULTS.gateway.http.endpoints.chatCompletions.rateLimitPerMinute)
  rateLimitPerMinute?: number;
}

@StrictObject('POST /v1/chat/completions and GET /v1/models: agents behind the OpenAI Chat Completions API.')
export class ChatCompletionsEndpointConfig extends KeyedEndpointConfig {
  @IsOptional()
  @IsBoolean()
  @Describe('Serve the endpoint; while false its routes answer 404.')
  @Default(CONFIG_DEFAULTS.gateway.http.endpoints.chatCompletions.enabled)
  enabled?: boolean;
}

@StrictObject('/mcp: agents as the tools of a Model Context Protocol server (Streamable HTTP).')
export class McpEndpointConfig extends KeyedEndpointConfig {
  @IsOptional()
  @IsBoolean()
  @Describe('Serve /mcp; while false it answers 404.')
  @Default(CONFIG_DEFAULTS.gateway.http.endpoints.mcp.enabled)
  enabled?: boolean;
}

@StrictObject('Extra HTTP APIs the gateway can serve.')
export class GatewayHttpEndpointsConfig {
  @IsOptional()
  @NestedObject(() => ChatCompletionsEndpointConfig)
  chatCompletions?: ChatCompletionsEndpointConfig;

  @IsOptional()
  @NestedObject(() => McpEndpointConfig)
  mcp?: McpEndpointConfig;
}

@StrictObject('HTTP APIs of the gateway besides the admin API and the channels.')
export class GatewayHttpConfig {
  @IsOptional()
  @NestedObject(() => GatewayHttpEndpointsConfig)
  endpoints?: GatewayHttpEndpointsConfig;
}
