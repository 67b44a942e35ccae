import { mkdtempSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeUsageStoreContract } from '../../../test/support/usage-store-contract';
import { SqliteUsageStore, usageDatabasePath } from './sqlite-usage.store';
import type { UsageStore } from './usage-store.port';

describeUsageStoreContract('SQLite', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-usage-contract-'));
  const opened: UsageStore[] = [];
  return {
    open: async () => {
      const store = new SqliteUsageStore(dir);
      opened.push(store);
      return store;
    },
    dispose: async () => {
      for (const store of opened) await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('SqliteUsageStore (SQLite only)', () => {
  it('is <stateDir>/usage.sqlite, readable by the gateway user only', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-usage-'));
    try {
      const store = new SqliteUsageStore(path.join(dir, 'state'));
      await store.close();
      expect(statSync(usageDatabasePath(path.join(dir, 'state'))).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
