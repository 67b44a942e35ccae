import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions';
import { PolicyCheckService } from './policy-check.service';
import { PolicyController } from './policy.controller';
import { SessionAccessPolicy } from './session-access-policy.service';

/**
 * Layers 2 and 3: session visibility and the agent-to-agent policy. Exports SessionAccessPolicy, the one
 * check every session tool and admin session endpoint goes through. ConfigStore comes from the global
 * ConfigModule; the session store (for "spawned by") from SessionsModule.
 */
@Module({
  imports: [SessionsModule],
  controllers: [PolicyController],
  providers: [SessionAccessPolicy, PolicyCheckService],
  exports: [SessionAccessPolicy, PolicyCheckService],
})
export class SessionPolicyModule {}
