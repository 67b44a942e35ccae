import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { DEFAULT_WINDOW, WINDOW_MESSAGE, WINDOW_PATTERN } from '../topology-window';

/** Query of `GET /admin/topology` and `GET /admin/topology.svg`; a repeated parameter arrives as an array and fails the checks. */
export class TopologyQueryDto {
  @ApiPropertyOptional({
    example: '1h',
    default: DEFAULT_WINDOW,
    description: 'How far back traffic is counted: 1m to 7d (`<n>m`, `<n>h` or `<n>d`).',
  })
  @IsOptional()
  @Matches(WINDOW_PATTERN, { message: WINDOW_MESSAGE })
  window?: string;

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    default: 'false',
    description: 'Also the agent-to-agent pairs the layers refuse, each with the deciding layer and rule.',
  })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'denied must be true or false' })
  denied?: 'true' | 'false';
}

/** Query of `POST /admin/topology/plan.svg`: which side of the plan to draw (both share one layout). */
export class TopologyPlanQueryDto {
  @ApiPropertyOptional({
    enum: ['before', 'after'],
    default: 'after',
    description:
      'after: the candidate, what it adds in green and what it removes dashed red. before: the served config in the same layout ' +
      '(every node where the after side has it), what the candidate adds left blank.',
  })
  @IsOptional()
  @IsIn(['before', 'after'], { message: 'side must be before or after' })
  side?: 'before' | 'after';
}
