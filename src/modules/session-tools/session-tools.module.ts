import { Module } from '@nestjs/common';
import { SessionPolicyModule } from '../session-policy';
import { RuntimeModule } from '../runtime';
import { SessionsModule } from '../sessions';
import { SessionsSendFlow } from './sessions-send-flow';
import { SessionActionsController } from './session-actions.controller';
import { SessionToolsService } from './session-tools.service';
import { SessionsSendService } from './sessions-send.service';

/** The session tools (sessions_list/history/send/spawn, session_status), registered in the tool registry. */
@Module({
  imports: [SessionPolicyModule, RuntimeModule, SessionsModule],
  controllers: [SessionActionsController],
  providers: [SessionToolsService, SessionsSendService, SessionsSendFlow],
  exports: [SessionToolsService, SessionsSendService],
})
export class SessionToolsModule {}
