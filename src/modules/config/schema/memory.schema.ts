import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Max, Min, MinLength } from 'class-validator';
import { MemoryCollectionConfig } from './agents.schema';
import { Describe, NestedArray, NestedObject, StrictObject } from './schema-decorators';

@StrictObject()
export class QmdSessionsConfig {
  @IsOptional() @IsBoolean()
  @Describe("Index the agent's own transcripts [false].")
  enabled?: boolean;
}

@StrictObject()
export class QmdUpdateConfig {
  @IsOptional() @IsInt() @Min(0) @Max(600000) debounceMs?: number;
}

@StrictObject()
export class QmdLimitsConfig {
  @IsOptional() @IsInt() @Min(1) @Max(100) maxResults?: number;
  @IsOptional() @IsInt() @Min(50) @Max(20000) maxSnippetChars?: number;
}

@StrictObject()
export class QmdConfig {
  @IsOptional() @IsBoolean()
  @Describe('Index MEMORY.md and memory/**/*.md of each agent [true].')
  includeDefaultMemory?: boolean;

  @IsOptional() @NestedObject(() => QmdSessionsConfig) sessions?: QmdSessionsConfig;

  @IsOptional() @IsBoolean()
  @Describe('Deprecated alias of sessions.enabled.')
  indexSessions?: boolean;

  @IsOptional() @NestedArray(() => MemoryCollectionConfig) paths?: MemoryCollectionConfig[];
  @IsOptional() @NestedObject(() => QmdUpdateConfig) update?: QmdUpdateConfig;
  @IsOptional() @NestedObject(() => QmdLimitsConfig) limits?: QmdLimitsConfig;
}

@StrictObject()
export class EmbeddingsConfig {
  @IsOptional() @IsIn(['bundled', 'openai', 'none']) provider?: 'bundled' | 'openai' | 'none';
  @IsOptional() @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }) baseUrl?: string;
  @IsOptional() @IsString() @MinLength(1) apiKey?: string;
  @IsOptional() @IsString() @MinLength(1) model?: string;
}

@StrictObject()
export class MemoryConfig {
  @IsOptional() @IsIn(['builtin', 'qmd'])
  @Describe('qmd selects the collection model (engine is built in) [builtin].')
  backend?: 'builtin' | 'qmd';

  @IsOptional() @IsIn(['auto', 'on', 'off']) citations?: 'auto' | 'on' | 'off';
  @IsOptional() @NestedObject(() => QmdConfig) qmd?: QmdConfig;
  @IsOptional() @NestedObject(() => EmbeddingsConfig) embeddings?: EmbeddingsConfig;
}
