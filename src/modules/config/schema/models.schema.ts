import { IsArray, IsBoolean, IsDefined, IsIn, IsInt, IsNumber, IsOptional, IsString, IsUrl, Max, Min, MinLength } from 'class-validator';
import { CONFIG_DEFAULTS } from '../config-defaults';
import { Default, Describe, NestedArray, NestedMap, NestedObject, NoUrlCredentials, StrictObject, StringMap } from './schema-decorators';
import { IsSecretInput, type SecretRefConfig } from './secret-input';

/** The wire protocols clawgate speaks (its own names). */
export const MODEL_APIS = ['openai-chat', 'openai-responses', 'anthropic-messages', 'echo'] as const;
/**
 * OpenClaw's `api` kinds (docs/gateway/config-tools.md#custom-providers-and-base-urls). Those clawgate speaks map
 * onto its own protocols; the others load with a warning and the provider's models are skipped (normalize/model-apis.ts).
 */
export const OPENCLAW_MODEL_APIS = [
  'openai-completions',
  'ollama',
  'anthropic-messages',
  'openai-responses',
  'openai-chatgpt-responses',
  'openai-codex-responses',
  'azure-openai-responses',
  'google-generative-ai',
  'google-vertex',
  'github-copilot',
  'bedrock-converse-stream',
] as const;
export const PROVIDER_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const API_DESCRIPTION =
  'Wire protocol: openai-chat, openai-responses, anthropic-messages, echo, or an OpenClaw kind (openai-completions and ollama speak openai-chat; the others load with a warning and runs fall back).';
const API_SCHEMA = { type: 'string', enum: [...new Set([...MODEL_APIS, ...OPENCLAW_MODEL_APIS])] };

@StrictObject('What a model costs, per million tokens (kept for usage pricing).')
export class ModelCostConfig {
  @IsOptional() @IsNumber() @Min(0) input?: number;
  @IsOptional() @IsNumber() @Min(0) output?: number;
  @IsOptional() @IsNumber() @Min(0) cacheRead?: number;
  @IsOptional() @IsNumber() @Min(0) cacheWrite?: number;
}

@StrictObject('A model of the provider (OpenClaw\'s model catalog entry): kept in the normalized config.')
export class ProviderModelConfig {
  @IsDefined() @IsString() @MinLength(1) @Describe('The model id, as the provider names it (the part after "provider/").') id!: string;
  @IsOptional() @IsString() name?: string;

  @IsOptional()
  @IsString()
  @Describe(`This model's protocol when it differs from the provider's. ${API_DESCRIPTION}`, API_SCHEMA)
  api?: string;

  @IsOptional() @IsBoolean() reasoning?: boolean;
  @IsOptional() @IsArray() @IsString({ each: true }) input?: string[];
  @IsOptional() @NestedObject(() => ModelCostConfig) cost?: ModelCostConfig;
  @IsOptional() @IsInt() @Min(1) contextWindow?: number;
  @IsOptional() @IsInt() @Min(1) contextTokens?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Describe('Most tokens of an answer; an anthropic-messages call sends it as max_tokens.')
  maxTokens?: number;
}

@StrictObject('A model provider; built-in names (echo, anthropic, openai, ollama) may be overridden.')
export class ModelProviderConfig {
  @IsOptional()
  @IsString()
  @Describe(`${API_DESCRIPTION} Unset: the built-in provider's, else openai-chat when baseUrl is set.`, API_SCHEMA)
  api?: string;

  @IsOptional()
  @NoUrlCredentials('put the key in apiKey or an Authorization header in headers')
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  baseUrl?: string;

  @IsOptional()
  @IsSecretInput()
  @Describe('The API key: a string, "${VAR}", or an OpenClaw SecretRef { source: "env", id: "VAR" }.', {
    oneOf: [
      { type: 'string', minLength: 1 },
      {
        type: 'object',
        additionalProperties: false,
        required: ['source', 'id'],
        properties: { source: { const: 'env' }, id: { type: 'string', pattern: '^[A-Z][A-Z0-9_]{0,127}$' }, provider: { const: 'default' } },
      },
    ],
  })
  apiKey?: string | SecretRefConfig;

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

  @IsOptional()
  @NestedArray(() => ProviderModelConfig)
  @Describe('The models of this provider (OpenClaw\'s catalog entries): id, name, contextWindow, maxTokens, cost, …')
  models?: ProviderModelConfig[];
}

@StrictObject()
export class ModelsConfig {
  @IsOptional()
  @IsIn(['merge', 'replace'])
  @Describe('merge: the built-in providers (anthropic, openai, ollama) stay beside models.providers; replace: only models.providers (and echo).')
  @Default(CONFIG_DEFAULTS.models.mode)
  mode?: 'merge' | 'replace';

  @IsOptional()
  @NestedMap(() => ModelProviderConfig, 'ModelProviderConfig', PROVIDER_NAME_PATTERN)
  providers?: Map<string, ModelProviderConfig>;
}
