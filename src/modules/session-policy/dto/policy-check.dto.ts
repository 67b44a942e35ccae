import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/*
 * One decorator per agent parameter so a missing `from` yields one clear message instead of three; `Matches`
 * also rejects a repeated parameter (`?from=a&from=b` arrives as an array). Whether the id exists is the
 * service's question (404), not the shape check's.
 */
const AGENT_PARAM = /^\S{1,64}$/;
const AGENT_PARAM_MESSAGE = '$property is required: one agent id (1-64 characters, no spaces)';

/** Query of `GET /admin/policy/check`. */
export class PolicyCheckQueryDto {
  @ApiProperty({ example: 'support', description: 'Requester agent id (as configured).' })
  @Matches(AGENT_PARAM, { message: AGENT_PARAM_MESSAGE })
  from!: string;

  @ApiProperty({ example: 'expert', description: 'Target agent id (as configured).' })
  @Matches(AGENT_PARAM, { message: AGENT_PARAM_MESSAGE })
  to!: string;

  @ApiPropertyOptional({
    example: 'agent:support:main',
    description: 'Requester session; must belong to `from`. Default `agent:<from>:<session.mainKey>`.',
  })
  @IsOptional()
  @IsString({ message: '$property must be one session key' })
  @MaxLength(1024)
  fromSession?: string;

  @ApiPropertyOptional({
    example: 'agent:expert:subagent:4f1c9a1e-0b5e-4a51-9d7c-2f3f0d1e8a77',
    description: 'Target session; must belong to `to`. Default `agent:<to>:<session.mainKey>`.',
  })
  @IsOptional()
  @IsString({ message: '$property must be one session key' })
  @MaxLength(1024)
  toSession?: string;
}

/** Which layer and rule decided a (from, to) pair — the same decision a session tool would get. */
export class PolicyCheckResultDto {
  @ApiProperty({ example: false }) allowed!: boolean;

  // OpenAPI 3.0: `nullable` only widens `type`; an enum must list null itself or null stays invalid.
  @ApiProperty({
    type: String,
    enum: ['visibility', 'policy', null] as unknown as string[],
    nullable: true,
    example: 'policy',
    description: 'The layer that refused; null when allowed.',
  })
  layer!: 'visibility' | 'policy' | null;

  @ApiProperty({
    example: 'tools.agentToAgent.allow: no pattern matches "expert"',
    description: 'Short machine-readable reason (not a stable API: for humans and logs).',
  })
  rule!: string;

  @ApiPropertyOptional({
    example: 'Agent-to-agent messaging denied by tools.agentToAgent.allow.',
    description: 'Only when refused: the exact message a session tool would return.',
  })
  message?: string;
}
