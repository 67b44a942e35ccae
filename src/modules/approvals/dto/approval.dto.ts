import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { APPROVAL_STATES, type ApprovalState } from '../approval';

export class ApprovalDto {
  @ApiProperty({ example: '01938f2e-7c1a-7b3e-9a44-0c2d5e8f1a23' })
  id!: string;
  @ApiProperty({
    enum: APPROVAL_STATES,
    description: 'pending until decided; expired: no decision in time; withdrawn: the run ended first.',
  })
  state!: ApprovalState;
  @ApiProperty({ example: 'ops' })
  agentId!: string;
  @ApiProperty({ example: 'agent:ops:a2a:default:direct:hermes:ctx-…' })
  sessionKey!: string;
  @ApiProperty({ description: 'The run that asked.' })
  runId!: string;
  @ApiProperty({ example: 'mcp:files:delete', description: 'The tool, as tools.allow names it.' })
  tool!: string;
  @ApiProperty({ description: "The model's call id." })
  toolCallId!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The arguments the tool would be called with.' })
  args!: Record<string, unknown>;
  @ApiProperty({ example: 'a2a', description: 'The channel the run’s message came from (a2a, http, telegram, agent, internal, …).' })
  channel!: string;
  @ApiPropertyOptional({ example: 'hermes', description: 'The A2A peer, OpenAI/MCP key or channel account.' })
  caller?: string;
  @ApiPropertyOptional({ description: 'The A2A task the run belongs to (INPUT_REQUIRED while this waits).' })
  taskId?: string;
  @ApiProperty({ example: '2026-12-07T10:00:00.000Z' })
  requestedAt!: string;
  @ApiProperty({ description: 'When no decision counts as a denial (tools.approvalTimeoutMs).' })
  expiresAt!: string;
  @ApiPropertyOptional({ example: '2026-12-07T10:00:00.000Z' })
  decidedAt?: string;
  @ApiPropertyOptional({ example: 'token:ops-console', description: 'Who decided: the admin identity, or timeout / run.' })
  decidedBy?: string;
  @ApiPropertyOptional({ description: 'The operator’s words; a denial gives them to the model.' })
  note?: string;
  @ApiPropertyOptional({ description: 'The run that went on after the decision when the one that asked was gone (a restart).' })
  resumedBy?: string;
}

export class ApprovalListDto {
  @ApiProperty({ type: [ApprovalDto], description: 'Newest first.' })
  items!: ApprovalDto[];
}
