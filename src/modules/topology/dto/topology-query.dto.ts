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
