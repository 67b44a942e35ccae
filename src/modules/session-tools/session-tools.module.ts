import { Module } from '@nestjs/common';
import { A2aPolicyModule } from '../a2a-policy/a2a-policy.module';
import { RuntimeModule } from '../runtime/runtime.module';
import { SessionsModule } from '../sessions/sessions.module';
import { A2aFlow } from './a2a-flow';
import { SessionActionsController } from './session-actions.controller';
import { SessionToolsService } from './session-tools.service';
import { SessionsSendService } from './sessions-send.service';

/** The session tools (sessions_list/history/send/spawn, session_status), registered in the tool registry. */
@Module({
  imports: [A2aPolicyModule, RuntimeModule, SessionsModule],
  controllers: [SessionActionsController],
  providers: [SessionToolsService, SessionsSendService, A2aFlow],
  exports: [SessionToolsService, SessionsSendService],
})
export class SessionToolsModule {}
