import { Module } from '@nestjs/common';
import { SessionPolicyModule } from '../session-policy';
import { RuntimeModule } from '../runtime';
import { SessionsModule } from '../sessions';
import { ExchangeRecorder } from './exchange-recorder';
import { RunReports } from './run-reports';
import { RunReportsController } from './run-reports.controller';
import { SessionsSendFlow } from './sessions-send-flow';
import { SessionActionsController } from './session-actions.controller';
import { SessionToolsService } from './session-tools.service';
import { SessionsSendService } from './sessions-send.service';

/**
 * The session tools (sessions_list/history/send/spawn, session_status), registered in the tool registry, the
 * record of sessions_send exchanges (stored in the state dir) and the run reports read from it.
 */
@Module({
  imports: [SessionPolicyModule, RuntimeModule, SessionsModule],
  controllers: [SessionActionsController, RunReportsController],
  providers: [SessionToolsService, SessionsSendService, SessionsSendFlow, ExchangeRecorder, RunReports],
  exports: [SessionToolsService, SessionsSendService, ExchangeRecorder],
})
export class SessionToolsModule {}
