import { hostname } from 'node:os';
import { Logger, Module } from '@nestjs/common';
import { postgresTarget } from '../../common/storage/postgres-errors';
import { ClusterModule, ClusterService } from '../cluster';
import { ConfigStore, GATEWAY_OPTIONS, type GatewayOptions } from '../config';
import { SessionPolicyModule } from '../session-policy';
import { RuntimeModule } from '../runtime';
import { SessionsModule } from '../sessions';
import { ExchangeRecorder } from './exchange-recorder';
import { EXCHANGE_STORE, SelectedExchangeStore } from './exchange-store-selection';
import { OrphanedExchangeSweeper } from './orphaned-exchange-sweeper';
import { PgExchangeStore } from './pg-exchange.store';
import { RunReports } from './run-reports';
import { RunReportsController } from './run-reports.controller';
import { SessionsSendFlow } from './sessions-send-flow';
import { SessionActionsController } from './session-actions.controller';
import { SessionToolsService } from './session-tools.service';
import { SessionsSendService } from './sessions-send.service';
import { exchangeDatabasePath, SqliteExchangeStore } from './sqlite-exchange.store';

/**
 * The session tools (sessions_list/history/send/spawn, session_status), registered in the tool registry, the
 * record of sessions_send exchanges (in the state dir, or in PostgreSQL with `gateway.state`) and the run reports
 * read from it.
 */
@Module({
  imports: [SessionPolicyModule, RuntimeModule, SessionsModule, ClusterModule],
  controllers: [SessionActionsController, RunReportsController],
  providers: [
    {
      provide: EXCHANGE_STORE,
      // An exchange is owned by this process (its replica id, leased in Redis with gateway.cluster); its state dir
      // names the exchanges the next start on that dir marks interrupted.
      useFactory: (config: ConfigStore, options: GatewayOptions, cluster: ClusterService) => {
        const logger = new Logger('sessions_send');
        // Before the config is loaded nothing is trimmed (a cap would be a guess); the next exchange applies the real one.
        const keep = () => (config.isLoaded() ? config.current().config.session.agentToAgent.keptExchanges : Number.POSITIVE_INFINITY);
        const onInterrupted = (count: number) =>
          logger.warn(`${count} sessions_send exchange(s) were still running when the gateway stopped: marked interrupted`);
        return new SelectedExchangeStore(config, {
          sqlite: () => new SqliteExchangeStore(exchangeDatabasePath(options.stateDir), keep, onInterrupted),
          postgres: (url) =>
            PgExchangeStore.open(url, {
              keep,
              onInterrupted,
              owner: cluster.replicaId,
              stateDir: `${hostname()}:${options.stateDir}`,
              leased: () => cluster.mode === 'cluster',
            }),
          describe: postgresTarget,
        });
      },
      inject: [ConfigStore, GATEWAY_OPTIONS, ClusterService],
    },
    SessionToolsService,
    SessionsSendService,
    SessionsSendFlow,
    ExchangeRecorder,
    OrphanedExchangeSweeper,
    RunReports,
  ],
  exports: [SessionToolsService, SessionsSendService, ExchangeRecorder],
})
export class SessionToolsModule {}
