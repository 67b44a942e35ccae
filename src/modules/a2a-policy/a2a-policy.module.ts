import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions/sessions.module';
import { PolicyCheckService } from './policy-check.service';
import { PolicyController } from './policy.controller';
import { VisibilityGuard } from './visibility-guard.service';

/**
 * Layers 2 and 3: the visibility guard and the agent-to-agent policy. Exports VisibilityGuard, the one
 * check every session tool and admin session endpoint goes through. ConfigStore comes from the global
 * ConfigModule; the session store (for "spawned by") from SessionsModule.
 */
@Module({
  imports: [SessionsModule],
  controllers: [PolicyController],
  providers: [VisibilityGuard, PolicyCheckService],
  exports: [VisibilityGuard],
})
export class A2aPolicyModule {}
