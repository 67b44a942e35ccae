import { ApiProperty } from '@nestjs/swagger';
import { ConfigIssueDto } from '../../config';
import { PlanImpactDto } from './config-plan-response.dto';

/** Answer of `PATCH /admin/config` and `POST /admin/config/rollback`. */
export class ConfigWriteResultDto {
  @ApiProperty({ example: '8c0d41e9a2b7', description: 'The revision now served (also the ETag header); send it as If-Match next time.' })
  revision!: string;
  @ApiProperty({ type: [ConfigIssueDto], description: 'Warnings of the loader on the new config (dotted paths).' })
  warnings!: ConfigIssueDto[];
  @ApiProperty({ type: [String], example: ['gateway.port'], description: 'Keys whose change waits for a restart.' })
  pendingRestart!: string[];
  @ApiProperty({ type: PlanImpactDto, description: 'What the change did, as POST /admin/config/plan computes it (before → after).' })
  impact!: PlanImpactDto;
}
