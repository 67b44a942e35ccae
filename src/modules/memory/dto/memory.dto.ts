import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';

/** Query of `GET /admin/agents/:id/memory/search`; unknown parameters are rejected (400). */
export class MemorySearchQueryDto {
  @ApiProperty({ example: 'when is the piano lesson', description: 'What to look for (1-2000 characters).' })
  @IsString({ message: '$property must be one string' })
  @MinLength(1)
  @MaxLength(2000)
  q!: string;

  @ApiPropertyOptional({ example: 6, minimum: 1, maximum: 100, description: 'Results to return [memory.qmd.limits.maxResults].' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({
    example: 0.2,
    minimum: 0,
    maximum: 1,
    description: 'Drop results less relevant than this [memory.qmd.limits.minScore].',
  })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  minScore?: number;
}

export class MemoryHitDto {
  @ApiProperty({ example: 'family-sessions' }) collection!: string;
  @ApiProperty({
    example: 'family-sessions/3b7c1f9e-2a41-4d51-9a0e-6f1f3c2b9d10.jsonl',
    description: 'Workspace-relative, or `<collection>/<path>`; accepted by memory_get.',
  })
  path!: string;
  @ApiProperty({ example: 2, description: '1-based; for transcripts the JSONL line number.' }) startLine!: number;
  @ApiProperty({ example: 4 }) endLine!: number;
  @ApiProperty({
    example: 0.8123,
    minimum: 0,
    maximum: 1,
    description:
      'Relevance: cosine similarity, raised halfway toward the share of query words the chunk holds (docs/memory.md#how-search-ranks).',
  })
  score!: number;
  @ApiProperty({ example: 'user: Emma has her piano lesson every Tuesday at 5 pm\n\nassistant: [family] Emma has her piano lesson…' })
  snippet!: string;
  @ApiPropertyOptional({
    example: 'family-sessions/3b7c1f9e-2a41-4d51-9a0e-6f1f3c2b9d10.jsonl#L2-L4',
    description: '`path#Lstart-Lend`; present when memory.citations is "on".',
  })
  citation?: string;
}

/** The memory_search result shape. */
export class MemorySearchResultDto {
  @ApiProperty({ enum: ['ok'], example: 'ok' }) status!: 'ok';
  @ApiProperty({ type: [MemoryHitDto] }) results!: MemoryHitDto[];
}

export class MemoryCollectionDto {
  @ApiProperty({ example: 'memory-root-main' }) name!: string;
  @ApiProperty({ enum: ['memory-root', 'memory-dir', 'sessions', 'path', 'extra'], example: 'memory-root' }) kind!: string;
  @ApiProperty({ example: '/home/me/.openclaw/workspace-main', description: 'Directory the collection reads.' }) path!: string;
  @ApiProperty({ example: 'MEMORY.md', description: 'Glob of the files it includes.' }) pattern!: string;
  @ApiProperty({ example: 1 }) files!: number;
  @ApiProperty({ example: 3 }) chunks!: number;
  @ApiProperty({ example: 3, description: 'Chunks with a vector from the current embedder.' }) embedded!: number;
  @ApiProperty({ example: 0, description: 'Chunks still waiting for their vector (0 without an embedder).' }) pending!: number;
  @ApiProperty({
    example: 0,
    description: 'Milliseconds the oldest waiting chunk has waited since its file was indexed (0 when none waits).',
  })
  lagMs!: number;
  @ApiPropertyOptional({ example: '2025-05-02T09:14:03.120Z' }) lastIndexedAt?: string;
}

export class MemoryEmbeddingsDto {
  @ApiProperty({ enum: ['bundled', 'bundled-static', 'openai', 'none'], example: 'bundled' }) provider!: string;
  @ApiProperty({ nullable: true, type: String, example: 'bundled:use-lite-512', description: 'null for provider none.' })
  fingerprint!: string | null;
  @ApiPropertyOptional({ example: 'embeddings endpoint answered HTTP 401: Incorrect API key provided' }) lastError?: string;
  @ApiPropertyOptional({
    example: 0,
    description:
      'bundled-static only: chunks still waiting for the bundled model vector a background pass adds after indexing (rerank > 0; 0 with rerank 0); ' +
      'until it is 0 a search rescores its best candidates with the model, afterwards it reads the model vectors.',
  })
  awaitingModel?: number;
  @ApiPropertyOptional({
    example: 'the embedding worker exited',
    description: 'Why the last background pass for the model vectors failed.',
  })
  upgradeError?: string;
}

export class MemoryCollectionsDto {
  @ApiProperty({ example: 'main' }) agentId!: string;
  @ApiProperty({
    enum: ['builtin', 'qmd'],
    example: 'qmd',
    description: 'builtin: MEMORY.md and memory/ only; qmd: the full collection model.',
  })
  backend!: 'builtin' | 'qmd';
  @ApiProperty({ type: MemoryEmbeddingsDto }) embeddings!: MemoryEmbeddingsDto;
  @ApiProperty({ type: [MemoryCollectionDto] }) collections!: MemoryCollectionDto[];
}

export class MemoryReindexDto {
  @ApiProperty({ example: 'main' }) agentId!: string;
  @ApiProperty({ example: 12, description: 'Files read and chunked again.' }) indexed!: number;
  @ApiProperty({ example: 0 }) unchanged!: number;
  @ApiProperty({ example: 1, description: 'Files dropped (deleted, or no longer in a collection).' }) removed!: number;
  @ApiProperty({ type: [String], example: [] }) skipped!: string[];
  @ApiProperty({ example: 48 }) chunks!: number;
  @ApiProperty({ example: 48 }) embedded!: number;
  @ApiProperty({ example: 2210 }) durationMs!: number;
}

/** Query of `GET /admin/agents/:id/memory/file`; unknown parameters are rejected (400). */
export class MemoryFileQueryDto {
  @ApiProperty({
    example: 'memory/2025-05.md',
    description: 'A path as memory_search returns it (workspace-relative or `<collection>/<path>`).',
  })
  @IsString({ message: '$property must be one string' })
  @MinLength(1)
  @MaxLength(4096)
  path!: string;

  @ApiPropertyOptional({ example: 1, minimum: 1, description: 'First line (1-based) [1].' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  from?: number;

  @ApiPropertyOptional({ example: 40, minimum: 1, maximum: 100000, description: 'How many lines [all remaining].' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100000)
  lines?: number;
}

/** What memory_get answers for a file the agent may read. */
export class MemoryFileDto {
  @ApiProperty({ enum: ['ok'], example: 'ok' }) status!: 'ok';
  @ApiProperty({ example: 'memory/2025-05.md' }) path!: string;
  @ApiProperty({ example: '# May\n\nThe boiler service is booked for the 14th.' }) text!: string;
  @ApiProperty({ example: 1 }) from!: number;
  @ApiProperty({ example: 3 }) to!: number;
  @ApiProperty({ example: 3 }) totalLines!: number;
  @ApiProperty({ example: false, description: 'More than 64 KiB: continue with `from`.' }) truncated!: boolean;
}
