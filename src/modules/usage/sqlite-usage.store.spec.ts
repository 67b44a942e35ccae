import { mkdtempSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openSqlite } from '../../common/storage/sqlite';
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
  it('opens a file an earlier version wrote: its rows stay, the origin columns are added and filled from then on', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-usage-old-'));
    try {
      // The table as it was before the work's origin was recorded.
      const old = openSqlite(usageDatabasePath(dir));
      old.exec(`CREATE TABLE usage_calls (seq INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, agent_id TEXT NOT NULL,
        session_key TEXT NOT NULL, run_id TEXT NOT NULL, model TEXT NOT NULL, provider TEXT NOT NULL, channel TEXT NOT NULL,
        caller TEXT, input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL, cached_tokens INTEGER NOT NULL, cost REAL);
        INSERT INTO usage_calls (at, agent_id, session_key, run_id, model, provider, channel, caller, input_tokens, output_tokens, cached_tokens, cost)
        VALUES (1000, 'main', 'agent:main:main', 'run-old', 'up/m', 'up', 'internal', NULL, 70, 30, 0, 0.5);`);
      old.close();

      const store = new SqliteUsageStore(dir);
      const origin = { runId: 'run-root', agentId: 'main', sessionKey: 'agent:main:main', channel: 'internal' };
      store.append({
        ...{ at: 2000, agentId: 'b', sessionKey: 'agent:b:main', runId: 'run-new', model: 'up/m', provider: 'up' },
        ...{ channel: 'agent', caller: 'agent:main:main', inputTokens: 5, outputTokens: 5, cachedTokens: 0, cost: null, origin },
      });
      expect(await store.spent({ column: 'agent_id', value: 'main', from: 0 })).toEqual({ tokens: 100, cost: 0.5, oldest: 1000 });
      expect(await store.spent({ column: 'agent_id', value: 'main', from: 0, origin: true })).toEqual({
        tokens: 10,
        cost: 0,
        oldest: 2000,
      });
      await store.close();

      const reopened = openSqlite(usageDatabasePath(dir));
      const columns = (reopened.prepare('SELECT name FROM pragma_table_info(?)').all('usage_calls') as Array<{ name: string }>).map(
        (c) => c.name,
      );
      const rows = reopened.prepare('SELECT run_id, origin_run_id, origin_caller FROM usage_calls ORDER BY seq').all();
      reopened.close();
      expect(columns).toEqual(
        expect.arrayContaining(['origin_run_id', 'origin_agent_id', 'origin_session_key', 'origin_channel', 'origin_caller']),
      );
      expect(rows).toEqual([
        { run_id: 'run-old', origin_run_id: null, origin_caller: null },
        { run_id: 'run-new', origin_run_id: 'run-root', origin_caller: null },
      ]);
      // Opening it again adds nothing twice.
      await new SqliteUsageStore(dir).close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

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
