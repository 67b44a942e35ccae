import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ExchangeRecord, STOPPED_BEFORE_END } from './exchange-record';
import { openSqlite } from '../../common/storage/sqlite';
import { exchangeDatabasePath, ExchangeStore } from './exchange-store';

const at = '2026-11-29T10:00:00.000Z';
const exchange = (n: number, patch: Partial<ExchangeRecord> = {}): ExchangeRecord => ({
  runId: `r${n}`,
  chainId: `c${n}`,
  requesterSessionKey: 'agent:support:main',
  targetSessionKey: 'agent:expert:main',
  request: `question ${n}`,
  state: 'finished',
  startedAt: at,
  updatedAt: at,
  roundOne: { runId: `r${n}`, sessionKey: 'agent:expert:main', status: 'completed', reply: `answer ${n}` },
  ...patch,
});

describe('ExchangeStore (SQLite)', () => {
  let dir: string;
  let file: string;
  const stores: ExchangeStore[] = [];
  const open = (keep = 100, onInterrupted?: (n: number) => void) => {
    const store = new ExchangeStore(file, () => keep, onInterrupted);
    stores.push(store);
    return store;
  };
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-exchanges-'));
    file = exchangeDatabasePath(dir);
  });
  afterEach(() => {
    for (const s of stores.splice(0)) s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates no file until the first write; reads before that find nothing', () => {
    expect(open().find('r1')).toBeUndefined();
    expect(existsSync(file)).toBe(false);
  });

  it('finds an exchange by the id of any of its runs, with the state of the last write', async () => {
    const store = open();
    const record = exchange(1, { state: 'running' });
    await store.save(() => record);
    record.pingPong = {
      maxTurns: 2,
      turns: [{ turn: 1, role: 'requester', runId: 't1', sessionKey: 'agent:support:main', status: 'completed' }],
    };
    record.announce = { status: 'delivered', step: { runId: 'a1', sessionKey: 'agent:expert:main', status: 'completed' } };
    record.state = 'finished';
    await store.save(() => record);
    for (const runId of ['r1', 't1', 'a1']) expect(store.find(runId)).toEqual(record);
    expect(store.find('nope')).toBeUndefined();
  });

  it('keeps the newest `keep` exchanges: the oldest go first, with the ids of their runs', async () => {
    let keep = 3;
    const store = new ExchangeStore(file, () => keep);
    stores.push(store);
    for (let n = 1; n <= 5; n++)
      await store.save(() =>
        exchange(n, { announce: { status: 'skipped', step: { runId: `a${n}`, sessionKey: 'x', status: 'completed' } } }),
      );
    expect(['r1', 'r2', 'r3', 'r4', 'r5'].map((id) => store.find(id) !== undefined)).toEqual([false, false, true, true, true]);
    expect(store.find('a2')).toBeUndefined();
    expect(store.find('a3')?.runId).toBe('r3');
    // Updating a kept exchange does not cut; lowering the bound applies at the next new exchange.
    await store.save(() => exchange(3, { request: 'edited' }));
    keep = 1;
    await store.save(() => exchange(6));
    expect(['r3', 'r4', 'r5', 'r6'].map((id) => store.find(id) !== undefined)).toEqual([false, false, false, true]);
  });

  it('marks exchanges a stopped process left running as interrupted when the store is next opened', async () => {
    const first = open();
    await first.save(() =>
      exchange(1, {
        state: 'running',
        roundOne: { runId: 'r1', sessionKey: 'agent:expert:main', status: 'completed', reply: 'first' },
        pingPong: {
          maxTurns: 3,
          turns: [{ turn: 1, role: 'requester', runId: 't1', sessionKey: 'agent:support:main', status: 'running' }],
        },
      }),
    );
    await first.save(() => exchange(2));
    first.close();

    const counted: number[] = [];
    const reopened = open(100, (n) => counted.push(n));
    const found = reopened.find('t1');
    expect(counted).toEqual([1]);
    expect(found).toMatchObject({
      state: 'interrupted',
      endedAt: expect.any(String),
      roundOne: { status: 'completed', reply: 'first' },
      pingPong: { turns: [{ runId: 't1', status: 'failed', error: STOPPED_BEFORE_END }] },
    });
    expect(reopened.find('r2')?.state).toBe('finished');
  });

  it('refuses writes once closed', async () => {
    const store = open();
    store.close();
    await expect(store.save(() => exchange(1))).rejects.toThrow('the exchange store is closed');
  });

  it('counts exchanges per requester and target agent since a time, from the covering index', async () => {
    const store = open();
    const t = (iso: string) => ({ startedAt: iso, updatedAt: iso });
    await store.save(() => exchange(1, t('2026-11-29T09:00:00.000Z')));
    await store.save(() => exchange(2, t('2026-11-29T10:00:00.000Z')));
    await store.save(() =>
      exchange(3, { ...t('2026-11-29T10:30:00.000Z'), requesterSessionKey: 'agent:expert:main', targetSessionKey: 'agent:support:x' }),
    );
    await store.save(() => exchange(4, t('2026-11-29T10:45:00.000Z')));
    expect(store.pairCounts(Date.parse('2026-11-29T10:00:00.000Z'))).toEqual([
      { from: 'expert', to: 'support', count: 1 },
      { from: 'support', to: 'expert', count: 2 },
    ]);
    expect(store.pairCounts(Date.parse('2026-11-29T11:00:00.000Z'))).toEqual([]);
    store.close();
    const db = openSqlite(file);
    const plan = db
      .prepare(
        'EXPLAIN QUERY PLAN SELECT from_agent, to_agent, COUNT(*) FROM exchanges WHERE started_at >= 0 GROUP BY from_agent, to_agent',
      )
      .all() as Array<{ detail: string }>;
    db.close();
    expect(plan.map((p) => p.detail).join('\n')).toContain('USING COVERING INDEX exchanges_by_start (started_at>?)');
  });

  it('counts nothing before the first write, and creates no file for it', () => {
    expect(open().pairCounts(0)).toEqual([]);
    expect(existsSync(file)).toBe(false);
  });

  it('fills the pair columns of a database an earlier version wrote', () => {
    const db = openSqlite(file);
    db.exec(`CREATE TABLE exchanges (seq INTEGER PRIMARY KEY, run_id TEXT NOT NULL UNIQUE, state TEXT NOT NULL, updated_at INTEGER NOT NULL, record TEXT NOT NULL);
      CREATE TABLE exchange_runs (run_id TEXT PRIMARY KEY, exchange_run_id TEXT NOT NULL) WITHOUT ROWID;`);
    db.prepare('INSERT INTO exchanges (run_id, state, updated_at, record) VALUES (?, ?, ?, ?)').run(
      'r1',
      'finished',
      Date.parse(at),
      JSON.stringify(exchange(1)),
    );
    db.close();
    expect(open().pairCounts(Date.parse(at))).toEqual([{ from: 'support', to: 'expert', count: 1 }]);
  });
});
