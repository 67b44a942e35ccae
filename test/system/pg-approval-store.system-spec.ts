import { PgApprovalStore } from '../../src/modules/approvals/pg-approval.store';
import { describeApprovalStoreContract } from '../support/approval-store-contract';
import { postgresForSuite } from './support/postgres';

jest.setTimeout(90_000);

const postgres = postgresForSuite('approvals');

describeApprovalStoreContract('PostgreSQL', async () => {
  const url = await postgres.freshDatabase();
  const opened: PgApprovalStore[] = [];
  return {
    open: async () => {
      const store = await PgApprovalStore.open(url);
      opened.push(store);
      return store;
    },
    dispose: async () => {
      for (const store of opened) await store.close().catch(() => undefined);
    },
  };
});
