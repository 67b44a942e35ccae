import { Logger, Module } from '@nestjs/common';
import { postgresTarget } from '../../common/storage/postgres';
import { storeFor } from '../../common/storage/store-for';
import { ConfigStore } from '../config';
import { PgUsageStore } from './pg-usage.store';
import { SqliteUsageStore } from './sqlite-usage.store';
import { UsageController } from './usage.controller';
import { UsageRecorder } from './usage-recorder';
import { BudgetGate } from './budget-gate';
import { USAGE_STORE, type UsageStore } from './usage-store.port';

/** Model call usage: the store, the recorder the runtime calls after each model call, GET /admin/usage (docs/usage.md). */
@Module({
  controllers: [UsageController],
  providers: [
    {
      provide: USAGE_STORE,
      // The store gateway.state names: the state dir's usage.sqlite, or the table replicas share. The recorder closes it.
      useFactory: (config: ConfigStore) =>
        storeFor<UsageStore>(config.current().config.gateway.state, {
          sqlite: () => new SqliteUsageStore(config.stateDir),
          postgres: async (url) => {
            const store = await PgUsageStore.open(url);
            new Logger('usage').log(`model call usage is stored in PostgreSQL at ${postgresTarget(url)}`);
            return store;
          },
        }),
      inject: [ConfigStore],
    },
    UsageRecorder,
    BudgetGate,
  ],
  exports: [UsageRecorder, BudgetGate, USAGE_STORE],
})
export class UsageModule {}
