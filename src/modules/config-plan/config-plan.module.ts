import { Logger, Module } from '@nestjs/common';
import { postgresTarget } from '../../common/storage/postgres-errors';
import { storeFor } from '../../common/storage/store-for';
import { ConfigStore } from '../config';
import { McpModule } from '../mcp';
import { SessionPolicyModule } from '../session-policy';
import { ConfigFileController } from './config-file.controller';
import { ConfigFileService } from './config-file.service';
import { ConfigPlanController } from './config-plan.controller';
import { ConfigPlanService } from './config-plan.service';
import { ConfigWriteController } from './config-write.controller';
import { ConfigWriteService } from './config-write.service';
import { ConfigHistoryController } from './history/config-history.controller';
import { CONFIG_HISTORY_STORE, type ConfigHistoryStore } from './history/config-history-store.port';
import { ConfigHistoryRecorder } from './history/config-history.recorder';
import { ConfigHistoryService } from './history/config-history.service';
import { PgConfigHistoryStore } from './history/pg-config-history.store';
import { SqliteConfigHistoryStore } from './history/sqlite-config-history.store';

/**
 * `POST /admin/config/plan`, `PATCH /admin/config`, `GET`/`PUT /admin/config/file`, the config history and rollback. Above routing,
 * session-policy, memory and mcp because the impact is computed with
 * their own evaluators (mcp: the tools its servers list); ConfigStore comes from the global ConfigModule.
 */
@Module({
  imports: [SessionPolicyModule, McpModule],
  controllers: [ConfigPlanController, ConfigWriteController, ConfigFileController, ConfigHistoryController],
  providers: [
    {
      provide: CONFIG_HISTORY_STORE,
      // The history gateway.state names: the state dir's config-history.sqlite, or the table replicas share (the other
      // is never opened). The recorder closes it once the last record is written.
      useFactory: (config: ConfigStore) =>
        storeFor<ConfigHistoryStore>(config.current().config.gateway.state, {
          sqlite: () => new SqliteConfigHistoryStore(config.stateDir),
          postgres: async (url) => {
            const store = await PgConfigHistoryStore.open(url);
            new Logger('config-history').log(`the config history is stored in PostgreSQL at ${postgresTarget(url)}`);
            return store;
          },
        }),
      inject: [ConfigStore],
    },
    ConfigPlanService,
    ConfigWriteService,
    ConfigFileService,
    ConfigHistoryRecorder,
    ConfigHistoryService,
  ],
  exports: [ConfigPlanService],
})
export class ConfigPlanModule {}
