import { Logger, Module } from '@nestjs/common';
import { postgresTarget } from '../../common/storage/postgres';
import { storeFor } from '../../common/storage/store-for';
import { ConfigStore } from '../config';
import { ApprovalGate } from './approval-gate';
import { APPROVAL_STORE, type ApprovalStore } from './approval-store.port';
import { ApprovalsController } from './approvals.controller';
import { PgApprovalStore } from './pg-approval.store';
import { SqliteApprovalStore } from './sqlite-approval.store';

/** Tool calls that wait for an operator: the store, the gate runs ask, GET/POST /admin/approvals (docs/approvals.md). */
@Module({
  controllers: [ApprovalsController],
  providers: [
    {
      provide: APPROVAL_STORE,
      // The store gateway.state names: the state dir's approvals.sqlite, or the table replicas share. The gate closes it.
      useFactory: (config: ConfigStore) =>
        storeFor<ApprovalStore>(config.current().config.gateway.state, {
          sqlite: () => new SqliteApprovalStore(config.stateDir),
          postgres: async (url) => {
            const store = await PgApprovalStore.open(url);
            new Logger('approvals').log(`tool approvals are stored in PostgreSQL at ${postgresTarget(url)}`);
            return store;
          },
        }),
      inject: [ConfigStore],
    },
    ApprovalGate,
  ],
  exports: [ApprovalGate],
})
export class ApprovalsModule {}
