import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeConfigHistoryStoreContract } from '../../../../test/support/config-history-store-contract';
import type { ConfigHistoryStore } from './config-history-store.port';
import { configHistoryDatabasePath, SqliteConfigHistoryStore } from './sqlite-config-history.store';

describeConfigHistoryStoreContract('SQLite', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-config-history-contract-'));
  const opened: ConfigHistoryStore[] = [];
  return {
    open: async () => {
      const store = new SqliteConfigHistoryStore(dir);
      opened.push(store);
      return store;
    },
    dispose: async () => {
      for (const store of opened) await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('SqliteConfigHistoryStore (SQLite only)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-config-history-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is <stateDir>/config-history.sqlite, readable by the gateway user only', async () => {
    const store = new SqliteConfigHistoryStore(path.join(dir, 'state'));
    await store.close();
    expect(configHistoryDatabasePath(path.join(dir, 'state'))).toBe(path.join(dir, 'state', 'config-history.sqlite'));
    expect(statSync(path.join(dir, 'state', 'config-history.sqlite')).mode & 0o777).toBe(0o600);
  });

  it('a state dir that is a file fails with an error naming the path', () => {
    const file = path.join(dir, 'not-a-dir');
    writeFileSync(file, '');
    expect(() => new SqliteConfigHistoryStore(file)).toThrow(/not-a-dir/);
  });
});
