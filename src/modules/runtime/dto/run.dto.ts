import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { RunStatus } from '../run-registry';

const RUN_STATUSES: RunStatus[] = ['queued', 'running', 'completed', 'failed', 'aborted'];

export class RunUsageDto {
  @ApiProperty({ example: 812 }) inputTokens!: number;
  @ApiProperty({ example: 64 }) outputTokens!: number;
}

/** A run as the runtime records it (in memory: the transcript is the durable record). */
export class RunDto {
  @ApiProperty({ example: '0b6f2a8e-3c1d-4f5e-9a7b-2d4c6e8f0a1b' }) runId!: string;
  @ApiProperty({ example: 'agent:support:main' }) sessionKey!: string;
  @ApiProperty({ example: 'support' }) agentId!: string;
  @ApiProperty({ enum: RUN_STATUSES, example: 'aborted' }) status!: RunStatus;
  @ApiPropertyOptional({ description: 'The final assistant text (completed runs).' }) reply?: string;
  @ApiPropertyOptional({ example: 'Run canceled by the gateway operator', description: 'Why it failed or was aborted.' }) error?: string;
  @ApiPropertyOptional({ enum: ['cancel', 'shutdown'], description: 'Who asked for the abort.' }) abortedBy?: 'cancel' | 'shutdown';
  @ApiProperty({ example: '2026-11-29T10:00:00.000Z' }) queuedAt!: string;
  @ApiPropertyOptional({ example: '2026-11-29T10:00:00.010Z' }) startedAt?: string;
  @ApiPropertyOptional({ example: '2026-11-29T10:00:03.402Z' }) endedAt?: string;
  @ApiProperty({ example: 1, description: 'Model → tools → model rounds done.' }) toolRounds!: number;
  @ApiPropertyOptional({ type: RunUsageDto }) usage?: RunUsageDto;
}
