import { Module } from '@nestjs/common';
import { SessionPolicyModule } from '../session-policy';
import { ConfigPlanController } from './config-plan.controller';
import { ConfigPlanService } from './config-plan.service';
import { ConfigWriteController } from './config-write.controller';
import { ConfigWriteService } from './config-write.service';
import { ConfigHistoryController } from './history/config-history.controller';
import { ConfigHistoryRecorder } from './history/config-history.recorder';
import { ConfigHistoryService } from './history/config-history.service';

/**
 * `POST /admin/config/plan`, `PATCH /admin/config`, the config history and rollback. Above routing,
 * session-policy and memory because the impact is computed with
 * their own evaluators; ConfigStore comes from the global ConfigModule.
 */
@Module({
  imports: [SessionPolicyModule],
  controllers: [ConfigPlanController, ConfigWriteController, ConfigHistoryController],
  providers: [ConfigPlanService, ConfigWriteService, ConfigHistoryRecorder, ConfigHistoryService],
  exports: [ConfigPlanService],
})
export class ConfigPlanModule {}
