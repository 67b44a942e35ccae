import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';

export const MAX_LIST_LIMIT = 500;
export const DEFAULT_HISTORY_LIMIT = 20;
export const MAX_HISTORY_LIMIT = 1000;

/**
 * Query strings arrive as text: "true"/"false" become booleans, anything else stays as given so
 * @IsBoolean rejects it with the field's name (class-transformer's Boolean() would turn "false" into true).
 */
const queryBoolean = Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value));

export class ListSessionsQueryDto {
  @ApiPropertyOptional({ example: 'main', description: 'Only this agent (also one no longer configured).' })
  @IsOptional()
  @IsString()
  @Matches(/^[a-z0-9][a-z0-9_-]{0,63}$/i, { message: 'agentId must be an agent id ([a-z0-9][a-z0-9_-]{0,63})' })
  agentId?: string;

  @ApiPropertyOptional({ example: 'research', description: 'Only the session holding this label.' })
  @IsOptional()
  @IsString()
  @Length(1, 512)
  label?: string;

  @ApiPropertyOptional({ example: 60, minimum: 1, description: 'Only sessions updated within the last N minutes.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  activeMinutes?: number;

  @ApiPropertyOptional({ example: 50, default: 50, minimum: 1, maximum: MAX_LIST_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_LIST_LIMIT)
  limit?: number;

  @ApiPropertyOptional({
    example: 'MTc2NDQxMDMwMDAwMC40Mg',
    description:
      '`nextCursor` of the previous page, unchanged (use the same filters). Sessions created meanwhile never repeat or skip an entry.',
  })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  cursor?: string;
}

export class SessionHistoryQueryDto {
  @ApiPropertyOptional({
    example: 20,
    default: DEFAULT_HISTORY_LIMIT,
    minimum: 1,
    maximum: MAX_HISTORY_LIMIT,
    description: 'The last N lines.',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_HISTORY_LIMIT)
  limit?: number;

  @ApiPropertyOptional({
    example: false,
    default: false,
    description: 'false drops tool-result lines and strips toolCalls (applied before limit).',
  })
  @IsOptional()
  @queryBoolean
  @IsBoolean()
  includeTools?: boolean;
}

export class DeliveryContextDto {
  @ApiPropertyOptional({ example: 'telegram' }) channel?: string;
  @ApiPropertyOptional({ example: 'default' }) accountId?: string;
  @ApiPropertyOptional({ example: '123456789' }) to?: string;
  @ApiPropertyOptional({ example: '42' }) threadId?: string;
}

export class SessionEntryDto {
  @ApiProperty({ example: 'agent:main:telegram:direct:123456789' }) sessionKey!: string;
  @ApiProperty({ example: '6f1c2a9e-3b4d-4c5e-8f70-1a2b3c4d5e6f', description: 'Stem of the transcript file.' }) sessionId!: string;
  @ApiProperty({ example: 'main' }) agentId!: string;
  @ApiPropertyOptional({ example: 'research' }) label?: string;
  @ApiPropertyOptional({ example: 'agent:main:main', description: 'The session that spawned this one.' }) spawnedBy?: string;
  @ApiProperty({ example: '2026-11-29T10:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ example: '2026-11-29T10:05:00.000Z' }) updatedAt!: string;
  @ApiPropertyOptional({ type: DeliveryContextDto }) deliveryContext?: DeliveryContextDto;
}

export class SessionListDto {
  @ApiProperty({ example: 1, description: 'Sessions on this page.' }) count!: number;
  @ApiProperty({ type: [SessionEntryDto] }) sessions!: SessionEntryDto[];
  @ApiPropertyOptional({ example: 'MTc2NDQxMDMwMDAwMC40Mg', description: 'Present when more sessions follow: pass it as `cursor`.' })
  nextCursor?: string;
}

export class ProvenanceDto {
  @ApiProperty({ enum: ['inter_session'] }) kind!: 'inter_session';
  @ApiProperty({ example: 'agent:ops:main' }) sourceSessionKey!: string;
  @ApiPropertyOptional({ example: 'a2a' }) sourceChannel?: string;
  @ApiProperty({ example: 'sessions_send' }) sourceTool!: string;
  @ApiPropertyOptional({ example: 'c0ffee00-0000-4000-8000-000000000000' }) chainId?: string;
  @ApiPropertyOptional({ example: 1 }) hop?: number;
  @ApiPropertyOptional({
    example: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    description: 'W3C trace context of the sending step (only while gateway.telemetry is on).',
  })
  traceparent?: string;
  @ApiPropertyOptional({ description: 'W3C tracestate that came with traceparent, if any.' }) tracestate?: string;
}

export class TranscriptLineDto {
  @ApiProperty({ example: 'b7e0d1c2-1111-4222-8333-944455566677' }) id!: string;
  @ApiProperty({ example: '2026-11-29T10:05:00.000Z' }) ts!: string;
  @ApiProperty({ enum: ['user', 'assistant', 'tool', 'system'], example: 'user' }) role!: string;
  @ApiProperty({ example: 'What changed in the last deploy?' }) text!: string;
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'Omitted when includeTools=false.',
  })
  toolCalls?: unknown[];
  @ApiPropertyOptional({ type: ProvenanceDto }) provenance?: ProvenanceDto;
  @ApiPropertyOptional({ example: 'run-7f3a' }) runId?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: { tokens: 812, durationMs: 1430 } })
  meta?: Record<string, unknown>;
}

export class SessionHistoryDto {
  @ApiProperty({ example: 'agent:main:main' }) sessionKey!: string;
  @ApiProperty({ type: [TranscriptLineDto] }) lines!: TranscriptLineDto[];
  @ApiProperty({
    type: [String],
    example: ['line 12: incomplete last line (interrupted write); skipped'],
    description: 'Lines that could not be read (torn or corrupt); the rest is still returned.',
  })
  warnings!: string[];
}
