import { IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString, IsUrl, Max, Min, MinLength } from 'class-validator';
import { MemoryCollectionConfig } from './agents.schema';
import { CONFIG_DEFAULTS } from '../config-defaults';
import { Default, Describe, NestedArray, NestedObject, NoUrlCredentials, StrictObject } from './schema-decorators';

@StrictObject()
export class QmdSessionsConfig {
  @IsOptional()
  @IsBoolean()
  @Describe("Index the agent's own transcripts.")
  @Default(CONFIG_DEFAULTS.memory.qmd.sessions.enabled)
  enabled?: boolean;
}

@StrictObject()
export class QmdUpdateConfig {
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(600000)
  @Default(CONFIG_DEFAULTS.memory.qmd.update.debounceMs)
  debounceMs?: number;
}

@StrictObject()
export class QmdLimitsConfig {
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  @Default(CONFIG_DEFAULTS.memory.qmd.limits.maxResults)
  maxResults?: number;
  @IsOptional()
  @IsInt()
  @Min(50)
  @Max(20000)
  @Default(CONFIG_DEFAULTS.memory.qmd.limits.maxSnippetChars)
  maxSnippetChars?: number;
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: '$property must be a number' })
  @Min(0)
  @Max(1)
  @Describe('Results less relevant than this are dropped when the caller gives no minScore (0 keeps everything).')
  @Default(CONFIG_DEFAULTS.memory.qmd.limits.minScore)
  minScore?: number;
}

@StrictObject()
export class QmdConfig {
  @IsOptional()
  @IsBoolean()
  @Describe('Index MEMORY.md and memory/**/*.md of each agent.')
  @Default(CONFIG_DEFAULTS.memory.qmd.includeDefaultMemory)
  includeDefaultMemory?: boolean;

  @IsOptional() @NestedObject(() => QmdSessionsConfig) sessions?: QmdSessionsConfig;

  @IsOptional()
  @IsBoolean()
  @Describe('Deprecated alias of sessions.enabled.')
  indexSessions?: boolean;

  @IsOptional()
  @NestedArray(() => MemoryCollectionConfig)
  @Default(CONFIG_DEFAULTS.memory.qmd.paths)
  paths?: MemoryCollectionConfig[];
  @IsOptional() @NestedObject(() => QmdUpdateConfig) update?: QmdUpdateConfig;
  @IsOptional() @NestedObject(() => QmdLimitsConfig) limits?: QmdLimitsConfig;
}

@StrictObject()
export class EmbeddingsConfig {
  @IsOptional()
  @IsIn(['bundled', 'bundled-static', 'openai', 'none'])
  @Default(CONFIG_DEFAULTS.memory.embeddings.provider)
  provider?: 'bundled' | 'bundled-static' | 'openai' | 'none';
  @IsOptional()
  @NoUrlCredentials('put the key in apiKey')
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  baseUrl?: string;
  @IsOptional() @IsString() @MinLength(1) apiKey?: string;
  @IsOptional() @IsString() @MinLength(1) model?: string;
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(8)
  @Describe('Worker threads that run the bundled model; each loads its own copy (~200 MB) and keeps one core busy while indexing.')
  @Default(CONFIG_DEFAULTS.memory.embeddings.workers)
  workers?: number;
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(50)
  @Describe(
    'bundled-static: how many of a search\'s best candidates the bundled model rescores at query time (0: none, the static ranking and scores as they are).',
  )
  @Default(CONFIG_DEFAULTS.memory.embeddings.rerank)
  rerank?: number;
}

@StrictObject()
export class MemoryConfig {
  @IsOptional()
  @IsIn(['builtin', 'qmd'])
  @Describe('qmd selects the collection model (engine is built in).')
  @Default(CONFIG_DEFAULTS.memory.backend)
  backend?: 'builtin' | 'qmd';

  @IsOptional()
  @IsIn(['auto', 'on', 'off'])
  @Default(CONFIG_DEFAULTS.memory.citations)
  citations?: 'auto' | 'on' | 'off';
  @IsOptional() @NestedObject(() => QmdConfig) qmd?: QmdConfig;
  @IsOptional() @NestedObject(() => EmbeddingsConfig) embeddings?: EmbeddingsConfig;
}
