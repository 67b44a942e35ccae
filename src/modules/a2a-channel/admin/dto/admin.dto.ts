import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { TASK_STATES, TaskState } from '../../../../common/a2a-protocol';
import { PEER_NAME_PATTERN } from '../../../config';
import { CONTEXT_ID_PATTERN } from '../../protocol/limits-and-messages';

export const MAX_TASK_LIST_LIMIT = 500;
export const DEFAULT_TASK_LIST_LIMIT = 50;

/** `completed`, `COMPLETED` and `TASK_STATE_COMPLETED` all name the same state. */
const taskStateParam = Transform(({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  const upper = value.trim().toUpperCase();
  return upper.startsWith('TASK_STATE_') ? upper : `TASK_STATE_${upper}`;
});

export class ListA2aTasksQueryDto {
  @ApiPropertyOptional({ example: 'hermes', description: 'Only tasks of this peer.' })
  @IsOptional()
  @IsString()
  @Matches(PEER_NAME_PATTERN, { message: `peer must be a peer name (${PEER_NAME_PATTERN.source})` })
  peer?: string;

  @ApiPropertyOptional({
    enum: TASK_STATES,
    example: 'TASK_STATE_COMPLETED',
    description: 'Only tasks in this state (`completed` works too).',
  })
  @IsOptional()
  @taskStateParam
  @IsIn(TASK_STATES, { message: `state must be one of: ${TASK_STATES.join(', ')}` })
  state?: TaskState;

  @ApiPropertyOptional({ example: 'ctx-3f1c', description: 'Only tasks of this conversation.' })
  @IsOptional()
  @IsString()
  @Matches(CONTEXT_ID_PATTERN, { message: 'contextId must match ^[A-Za-z0-9._:-]{1,128}$' })
  contextId?: string;

  @ApiPropertyOptional({ example: 50, default: DEFAULT_TASK_LIST_LIMIT, minimum: 1, maximum: MAX_TASK_LIST_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_TASK_LIST_LIMIT)
  limit?: number;
}

export class A2aTaskStatusMessageDto {
  @ApiProperty({ example: '1c6f0d3e-5a7b-4c9d-8e1f-2a3b4c5d6e7f' }) messageId!: string;
  @ApiProperty({ example: 'Agent completed without reply text' }) text!: string;
}

export class A2aTaskArtifactDto {
  @ApiProperty({ example: '9d8c7b6a-5f4e-4d3c-2b1a-0f9e8d7c6b5a' }) artifactId!: string;
  @ApiProperty({ example: '[support] hello' }) text!: string;
}

export class A2aTaskSummaryDto {
  @ApiProperty({ example: '4b2f8e1a-6c3d-4e5f-9a0b-1c2d3e4f5a6b' }) id!: string;
  @ApiProperty({ example: 'hermes', description: 'The authenticated peer that created the task.' }) peer!: string;
  @ApiProperty({ example: 'ctx-3f1c' }) contextId!: string;
  @ApiPropertyOptional({ example: 'support' }) agentId?: string;
  @ApiPropertyOptional({ example: 'agent:support:a2a:default:direct:hermes:ctx-3f1c' }) sessionKey?: string;
  @ApiProperty({ example: 'msg-1', description: "The peer's message id." }) messageId!: string;
  @ApiProperty({ enum: TASK_STATES, example: 'TASK_STATE_COMPLETED' }) state!: TaskState;
  @ApiPropertyOptional({ type: A2aTaskStatusMessageDto }) statusMessage?: A2aTaskStatusMessageDto;
  @ApiPropertyOptional({ example: '0b6f2a8e-3c1d-4f5e-9a7b-2d4c6e8f0a1b' }) runId?: string;
  @ApiProperty({ example: '2026-11-29T10:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ example: '2026-11-29T10:00:01.250Z', description: 'Last state change.' }) updatedAt!: string;
  @ApiProperty({ example: true, description: 'Whether the task carries a reply artifact (GET the task to read it).' }) hasReply!: boolean;
}

export class A2aTaskDto extends A2aTaskSummaryDto {
  @ApiPropertyOptional({ type: A2aTaskArtifactDto, description: 'The agent reply.' }) artifact?: A2aTaskArtifactDto;
}

export class A2aTaskListDto {
  @ApiProperty({ example: 1 }) count!: number;
  @ApiProperty({ type: [A2aTaskSummaryDto] }) tasks!: A2aTaskSummaryDto[];
}

export class A2aPeerDto {
  @ApiProperty({ example: 'hermes' }) name!: string;
  @ApiProperty({ example: true, description: 'False when its token ${VAR} is unset: it cannot authenticate.' }) usable!: boolean;
  @ApiProperty({ example: true, description: 'Has a `url`, so it can receive outbound messages.' }) hasUrl!: boolean;
  @ApiProperty({ example: false, description: 'Has an `outboundToken` we present to it.' }) hasOutboundToken!: boolean;
}

export class A2aPeerListDto {
  @ApiProperty({ example: true, description: '`channels.a2a.enabled`.' }) enabled!: boolean;
  @ApiProperty({ type: [A2aPeerDto] }) peers!: A2aPeerDto[];
}
