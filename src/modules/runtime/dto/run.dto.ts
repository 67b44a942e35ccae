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
  @ApiPropertyOptional({ description: 'The run whose tool started this one (sessions_spawn, sessions_send, a steer).' })
  parentRunId?: string;
  @ApiPropertyOptional({ description: 'For a run of a spawned session: the session that spawned it.' }) spawnedBy?: string;
  @ApiPropertyOptional({ description: 'What its model calls cost so far, when the models have prices.' }) cost?: number;
}

/** One run of a tree (`GET /admin/runs/{runId}/tree`), with the runs it started below it. */
export class RunTreeNodeDto {
  @ApiProperty({ example: '0b6f2a8e-3c1d-4f5e-9a7b-2d4c6e8f0a1b' }) runId!: string;
  @ApiProperty({ enum: RUN_STATUSES, example: 'running' }) status!: RunStatus;
  @ApiProperty({ example: 'support' }) agentId!: string;
  @ApiProperty({ example: 'agent:support:subagent:4f1c9a1e-0b5e-4a51-9d7c-2f3f0d1e8a77' }) sessionKey!: string;
  @ApiPropertyOptional({ example: 'openai/gpt-4.1-mini', description: 'The model (provider/model) once the run has started.' })
  model?: string;
  @ApiPropertyOptional({ description: 'The run whose tool started this one (sessions_spawn, sessions_send, a steer).' })
  parentRunId?: string;
  @ApiPropertyOptional({ example: 'agent:support:main', description: 'For a run of a spawned session: the session that spawned it.' })
  spawnedBy?: string;
  @ApiPropertyOptional({ type: RunUsageDto, description: 'Tokens of its model calls so far.' }) usage?: RunUsageDto;
  @ApiPropertyOptional({ example: 0.0042, description: 'What those calls cost so far, when the models have prices (docs/usage.md).' })
  cost?: number;
  @ApiProperty({ example: '2026-11-29T10:00:00.000Z' }) queuedAt!: string;
  @ApiPropertyOptional({ example: '2026-11-29T10:00:00.010Z' }) startedAt?: string;
  @ApiPropertyOptional({ example: '2026-11-29T10:00:03.402Z' }) endedAt?: string;
  @ApiProperty({ example: 3392, description: 'From the start (the queueing, while queued) to the end, or to now for a run not over.' })
  elapsedMs!: number;
  @ApiPropertyOptional({ description: 'Why it failed or was aborted.' }) error?: string;
  @ApiProperty({ type: () => [RunTreeNodeDto], description: 'The runs this one started, oldest first, each with its own.' })
  children!: RunTreeNodeDto[];
}

/** What `POST /admin/runs/{runId}/kill` did. */
export class RunTreeKillDto {
  @ApiProperty({ type: [String], description: 'The runs it aborted (those of the tree that were queued or running).' })
  aborted!: string[];
  @ApiProperty({ type: RunTreeNodeDto, description: 'The tree once they have stopped.' }) tree!: RunTreeNodeDto;
}
