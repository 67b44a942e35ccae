import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeExchangeStoreContract, exchangeOf } from '../../../test/support/exchange-store-contract';
import { openSqlite } from '../../common/storage/sqlite';
import { exchangeDatabasePath, SqliteExchangeStore } from './sqlite-exchange.store';

describeExchangeStoreContract('SQLite', { shared: false }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-exchanges-'));
  return {
    open: async ({ keep = () => 100, onInterrupted } = {}) => new SqliteExchangeStore(exchangeDatabasePath(dir), keep, onInterrupted),
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

const at = '2026-11-29T10:00:00.000Z';

describe('SqliteExchangeStore (SQLite only)', () => {
  let dir: string;
  let file: string;
  const stores: SqliteExchangeStore[] = [];
  const open = () => {
    const store = new SqliteExchangeStore(file, () => 100);
    stores.push(store);
    return store;
  };
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-exchanges-'));
    file = exchangeDatabasePath(dir);
  });
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates no file until the first write: reads and counts before that find nothing and create nothing', async () => {
    const store = open();
    expect(await store.find('r1')).toBeUndefined();
    expect(await store.pairCounts(0)).toEqual([]);
    expect(existsSync(file)).toBe(false);
    await store.save(() => exchangeOf(1));
    expect(existsSync(file)).toBe(true);
  });

  it('counts a window from the covering index on the start time', async () => {
    const store = open();
    await store.save(() => exchangeOf(1));
    await store.close();
    const db = openSqlite(file);
    const plan = db
      .prepare(
        'EXPLAIN QUERY PLAN SELECT from_agent, to_agent, COUNT(*) FROM exchanges WHERE started_at >= 0 GROUP BY from_agent, to_agent',
      )
      .all() as Array<{ detail: string }>;
    db.close();
    expect(plan.map((p) => p.detail).join('\n')).toContain('USING COVERING INDEX exchanges_by_start (started_at>?)');
  });

  it('fills the pair columns of a database an earlier version wrote', async () => {
    const db = openSqlite(file);
    db.exec(`CREATE TABLE exchanges (seq INTEGER PRIMARY KEY, run_id TEXT NOT NULL UNIQUE, state TEXT NOT NULL, updated_at INTEGER NOT NULL, record TEXT NOT NULL);
      CREATE TABLE exchange_runs (run_id TEXT PRIMARY KEY, exchange_run_id TEXT NOT NULL) WITHOUT ROWID;`);
    db.prepare('INSERT INTO exchanges (run_id, state, updated_at, record) VALUES (?, ?, ?, ?)').run(
      'r1',
      'finished',
      Date.parse(at),
      JSON.stringify(exchangeOf(1)),
    );
    db.close();
    expect(await open().pairCounts(Date.parse(at))).toEqual([{ from: 'support', to: 'expert', count: 1 }]);
  });
});
