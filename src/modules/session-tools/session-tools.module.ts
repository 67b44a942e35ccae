import { hostname } from 'node:os';
import { Logger, Module } from '@nestjs/common';
import { postgresTarget } from '../../common/storage/postgres-errors';
import { storeFor } from '../../common/storage/store-for';
import { ClusterModule, ClusterService } from '../cluster';
import { ConfigStore, GATEWAY_OPTIONS, type GatewayOptions } from '../config';
import { SessionPolicyModule } from '../session-policy';
import { RuntimeModule } from '../runtime';
import { SessionsModule } from '../sessions';
import { ExchangeRecorder } from './exchange-recorder';
import { EXCHANGE_STORE, type ExchangeStore } from './exchange-store.port';
import { OrphanedExchangeSweeper } from './orphaned-exchange-sweeper';
import { PgExchangeStore } from './pg-exchange.store';
import { RunReports } from './run-reports';
import { RunReportsController } from './run-reports.controller';
import { SessionsSendFlow } from './sessions-send-flow';
import { SessionActionsController } from './session-actions.controller';
import { SessionToolsService } from './session-tools.service';
import { SpawnLimits } from './spawn-limits';
import { SubagentsService } from './subagents.service';
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
      // The store gateway.state names (the other is never opened: with PostgreSQL no exchanges.sqlite is made). An
      // exchange is owned by this process (its replica id, leased in Redis with gateway.cluster, which is joined after
      // the graph is built: asked at each new exchange); its state dir names the exchanges the next start on that dir
      // marks interrupted. The store is closed by the ExchangeRecorder once the last exchange is written.
      useFactory: (config: ConfigStore, options: GatewayOptions, cluster: ClusterService) => {
        const logger = new Logger('sessions_send');
        const keep = () => config.current().config.session.agentToAgent.keptExchanges;
        const onInterrupted = (count: number) =>
          logger.warn(`${count} sessions_send exchange(s) were still running when the gateway stopped: marked interrupted`);
        return storeFor<ExchangeStore>(config.current().config.gateway.state, {
          sqlite: () => new SqliteExchangeStore(exchangeDatabasePath(options.stateDir), keep, onInterrupted),
          postgres: async (url) => {
            const store = await PgExchangeStore.open(url, {
              keep,
              onInterrupted,
              owner: cluster.replicaId,
              stateDir: `${hostname()}:${options.stateDir}`,
              leased: () => cluster.mode === 'cluster',
            });
            logger.log(`sessions_send exchanges are stored in PostgreSQL at ${postgresTarget(url)}`);
            return store;
          },
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
    SpawnLimits,
    SubagentsService,
  ],
  exports: [SessionToolsService, SessionsSendService, ExchangeRecorder],
})
export class SessionToolsModule {}
