import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openSqlite, SqliteDatabase, SqliteStatement } from '../../../../common/storage/sqlite';
import { A2aTaskStore, taskDatabasePath } from './sqlite-task.store';
import { prepareStatements } from './sqlite-task-schema';
import { describeTaskStoreContract, taskBuilder } from '../../../../../test/support/task-store-contract';

const HOUR = 3_600_000;
const policy = { terminalRetentionMs: 24 * HOUR, maxTerminalPerPeer: 3, idleExpiryMs: HOUR };

/** SQLite's plan for a prepared statement of the store, its steps joined: what a test holds an index choice to. */
function queryPlan(db: SqliteDatabase, statement: SqliteStatement, params: Record<string, unknown>): string {
  const steps = db.prepare(`EXPLAIN QUERY PLAN ${(statement as unknown as { source: string }).source}`).all(params) as Array<{
    detail: string;
  }>;
  return steps.map((r) => r.detail).join(' ');
}

describeTaskStoreContract('SQLite', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-a2a-contract-'));
  const opened: A2aTaskStore[] = [];
  return {
    open: async (retention, hooks) => {
      const store = new A2aTaskStore(taskDatabasePath(dir), retention, hooks);
      opened.push(store);
      return store;
    },
    dispose: async () => {
      for (const store of opened) await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

/** What only the SQLite store does: a file created lazily, databases of older versions, the group commit. */
describe('A2aTaskStore (SQLite)', () => {
  let dir: string;
  let file: string;
  let store: A2aTaskStore;
  const task = taskBuilder();

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-a2a-store-'));
    file = taskDatabasePath(dir);
    store = new A2aTaskStore(file, policy);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates no database file until the first task, and reads on a missing file find nothing', async () => {
    expect(await store.get('x')).toBeUndefined();
    expect(await store.list({ limit: 10 })).toEqual([]);
    expect(await store.failUnsettled(() => 'r', 1)).toBe(0);
    expect(await store.sweep(1, 'e')).toEqual({ expired: [], deleted: 0 });
    expect(existsSync(file)).toBe(false);
    await store.insert(task());
    expect(existsSync(file)).toBe(true);
  });

  it('counts a window from the recency index (query plan)', async () => {
    await store.insert(task({ createdAt: 2000, updatedAt: 2000 }));
    expect(await store.countsSince(['hermes'], 1500)).toEqual([{ peer: 'hermes', agentId: 'main', count: 1 }]);
    const db = openSqlite(file);
    const plan = queryPlan(db, prepareStatements(db).countsSince, { peer: 'hermes', since: 0 });
    db.close();
    expect(plan).toContain('USING INDEX tasks_by_peer_recency (peer=? AND updated_at>?)');
  });

  it("trims a peer's oldest finished tasks as one range of its index, and all of them when it has fewer", async () => {
    const done = { state: 'TASK_STATE_COMPLETED' } as const;
    // Under the cap of 3: t1, t3, t4 finished for hermes, t2 still working, t5 finished for another peer.
    const numbered = taskBuilder();
    for (const over of [done, {}, done, done, { ...done, peer: 'iris' }]) await store.insert(numbered(over));
    const db = openSqlite(file);
    const { pruneOldest } = prepareStatements(db);
    const plan = queryPlan(db, pruneOldest, { peer: 'hermes', excess: 1 });
    const ids = () => (db.prepare('SELECT id FROM tasks ORDER BY seq').all() as Array<{ id: string }>).map((r) => r.id);
    try {
      expect(plan).toContain('USING COVERING INDEX tasks_by_peer (peer=? AND terminal=? AND seq<?)');
      expect(pruneOldest.run({ peer: 'hermes', excess: 2 }).changes).toBe(2);
      expect(ids()).toEqual(['t2', 't4', 't5']);
      expect(pruneOldest.run({ peer: 'hermes', excess: 5 }).changes).toBe(1);
      expect(ids()).toEqual(['t2', 't5']);
    } finally {
      db.close();
    }
  });

  it('opens a database written before tasks kept a history: the column is added, old rows read with an empty one', async () => {
    const { openSqlite } = await import('../../../../common/storage/sqlite');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(path.dirname(file), { recursive: true });
    const old = openSqlite(file);
    old.exec(`CREATE TABLE tasks (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, peer TEXT NOT NULL, context_id TEXT NOT NULL,
      agent_id TEXT, session_key TEXT, message_id TEXT NOT NULL, state TEXT NOT NULL, terminal INTEGER NOT NULL, status_message_id TEXT,
      status_text TEXT, artifact_id TEXT, artifact_text TEXT, run_id TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`);
    old
      .prepare(
        `INSERT INTO tasks (id, peer, context_id, message_id, state, terminal, created_at, updated_at)
      VALUES ('old-1', 'hermes', 'ctx-1', 'm-old', 'TASK_STATE_COMPLETED', 1, 1000, 1000)`,
      )
      .run();
    old.close();
    expect(await store.get('old-1')).toMatchObject({ id: 'old-1', state: 'TASK_STATE_COMPLETED', history: [] });
    const fresh = task();
    await store.insert(fresh);
    expect(await store.get(fresh.id)).toEqual(fresh);
  });

  it('commits concurrent writes together; a failing write is rolled back alone', async () => {
    const first = task();
    await store.insert(first);
    const results = await Promise.allSettled([
      store.insert(task()),
      store.insert({ ...first }), // duplicate id
      store.transition(first.id, { state: 'TASK_STATE_COMPLETED' }, 3000),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await store.get(first.id))?.state).toBe('TASK_STATE_COMPLETED');
    expect(await store.list({ limit: 10 })).toHaveLength(2);
  });
});
