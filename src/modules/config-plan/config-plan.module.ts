import { Module } from '@nestjs/common';
import { SessionPolicyModule } from '../session-policy';
import { ConfigPlanController } from './config-plan.controller';
import { ConfigPlanService } from './config-plan.service';

/**
 * `POST /admin/config/plan`. Above routing, session-policy and memory because the impact is computed with
 * their own evaluators; ConfigStore comes from the global ConfigModule.
 */
@Module({
  imports: [SessionPolicyModule],
  controllers: [ConfigPlanController],
  providers: [ConfigPlanService],
  exports: [ConfigPlanService],
})
export class ConfigPlanModule {}
