import { PgUsageStore } from '../../src/modules/usage/pg-usage.store';
import { describeUsageStoreContract } from '../support/usage-store-contract';
import { postgresForSuite } from './support/postgres';

jest.setTimeout(90_000);

const postgres = postgresForSuite('usage');

describeUsageStoreContract('PostgreSQL', async () => {
  const url = await postgres.freshDatabase();
  const opened: PgUsageStore[] = [];
  return {
    open: async () => {
      const store = await PgUsageStore.open(url);
      opened.push(store);
      return store;
    },
    dispose: async () => {
      for (const store of opened) await store.close().catch(() => undefined);
    },
  };
});
