import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Max, Min, MinLength } from 'class-validator';
import { CONFIG_DEFAULTS } from '../config-defaults';
import { Default, Describe, NestedMap, NoUrlCredentials, StrictObject, StringMap } from './schema-decorators';

export const MODEL_APIS = ['openai-chat', 'anthropic-messages', 'echo'] as const;
export const PROVIDER_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

@StrictObject('A model provider; built-in names (echo, anthropic, openai, ollama) may be overridden.')
export class ModelProviderConfig {
  @IsOptional()
  @IsIn(MODEL_APIS)
  @Describe('Wire protocol; required unless the name is a built-in provider.')
  api?: (typeof MODEL_APIS)[number];

  @IsOptional()
  @NoUrlCredentials('put the key in apiKey or an Authorization header in headers')
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  baseUrl?: string;

  @IsOptional() @IsString() @MinLength(1) apiKey?: string;

  @IsOptional()
  @StringMap(undefined, 'Extra HTTP headers (treated as secrets).')
  @Default(CONFIG_DEFAULTS.each.modelProvider.headers)
  headers?: Record<string, string>;

  @IsOptional()
  @IsInt()
  @Min(1000)
  @Max(600000)
  @Default(CONFIG_DEFAULTS.each.modelProvider.timeoutMs)
  timeoutMs?: number;

  @IsOptional()
  @IsBoolean()
  @Describe(
    'Stream the answer (SSE) when the caller of a run takes the reply as it is written; false: one plain request, the reply arrives whole.',
  )
  @Default(CONFIG_DEFAULTS.each.modelProvider.stream)
  stream?: boolean;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10000)
  @Describe('api "echo" only: pause in ms between the words it streams (demos and tests).')
  @Default(CONFIG_DEFAULTS.each.modelProvider.streamDelayMs)
  streamDelayMs?: number;
}

@StrictObject()
export class ModelsConfig {
  @IsOptional()
  @NestedMap(() => ModelProviderConfig, 'ModelProviderConfig', PROVIDER_NAME_PATTERN)
  providers?: Map<string, ModelProviderConfig>;
}
