import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { TASK_STATES } from '../../../common/a2a-protocol';
import { A2A_SEND_MAX_TEXT } from '../a2a-send.schema';

/** Body of `POST /admin/a2a/peers/:name/send`; unknown fields are rejected by the global ValidationPipe. */
export class A2aSendDto {
  @ApiProperty({ example: 'Summarize the open tickets of this week.', minLength: 1, maxLength: A2A_SEND_MAX_TEXT })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(A2A_SEND_MAX_TEXT)
  @Matches(/\S/, { message: 'text must not be blank' })
  text!: string;

  @ApiPropertyOptional({
    default: false,
    description: 'Poll GetTask until the task settles or channels.a2a.replyTimeoutMs passes, and return the reply.',
  })
  @IsOptional()
  @IsBoolean()
  wait?: boolean;
}

export class A2aSendResultDto {
  @ApiProperty({
    enum: ['ok', 'accepted', 'timeout', 'error'],
    description:
      'ok: the task settled with an answer; accepted: sent, not waited for; timeout: still running after replyTimeoutMs; ' +
      'error: the peer reported FAILED/REJECTED/CANCELED or polling broke down.',
  })
  status!: 'ok' | 'accepted' | 'timeout' | 'error';

  @ApiProperty({
    type: String,
    nullable: true,
    example: '4b2f8e1a-6c3d-4e5f-9a0b-1c2d3e4f5a6b',
    description: 'Null when the peer answered with a message instead of a task.',
  })
  taskId!: string | null;

  @ApiProperty({ enum: TASK_STATES, example: 'TASK_STATE_COMPLETED' })
  state!: string;

  @ApiPropertyOptional({
    example: '[support] 3 tickets are open.',
    description: 'The task’s artifact text (or status message) once settled.',
  })
  reply?: string;

  @ApiPropertyOptional({ example: 'peer hermes reported TASK_STATE_FAILED: model timed out' })
  error?: string;
}
