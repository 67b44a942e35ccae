import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openSqlite, SqliteDatabase } from '../../../../common/storage/sqlite';
import { A2aTaskStore, taskDatabasePath } from './sqlite-task.store';
import type { A2aTask } from '../../model/task';
import { taskPageSql } from './task-page-query';
import { RECENCY_INDEX } from './sqlite-task-schema';
import type { TaskPageQuery } from '../task-store.port';

const policy = { terminalRetentionMs: 24 * 3_600_000, maxTerminalPerPeer: 1000, idleExpiryMs: 3_600_000 };
const AFTER = { updatedAt: 2000, seq: 3 };

/** Every shape of page a peer can ask for: each filter alone, all of them, with and without a page token. */
const QUERIES: Array<[string, Omit<TaskPageQuery, 'peer' | 'limit'>]> = [
  ['no filter', {}],
  ['contextId', { contextId: 'c1' }],
  ['status', { state: 'TASK_STATE_COMPLETED' }],
  ['statusTimestampAfter', { updatedSince: 1000 }],
  ['every filter', { contextId: 'c1', state: 'TASK_STATE_COMPLETED', updatedSince: 1000 }],
].flatMap(([name, filters]) => [
  [name as string, filters as Omit<TaskPageQuery, 'peer' | 'limit'>],
  [`${name as string}, after a page token`, { ...(filters as object), after: AFTER }],
]);

/**
 * The plans SQLite chooses for the ListTasks statements. The store never runs ANALYZE, so the planner has no
 * statistics and its choice does not depend on how many rows there are: the plan on a few rows is the plan
 * at 100,000. A change that loses the recency index (a reordered ORDER BY, a condition it cannot use, a
 * dropped index) makes every page sort all of a peer's rows, and fails here.
 */
describe('ListTasks SQL (query plans and pages over the recency index)', () => {
  let dir: string;
  let file: string;
  let store: A2aTaskStore;
  let seq = 0;
  const task = (over: Partial<A2aTask>): A2aTask => ({
    id: `t${++seq}`,
    peer: 'hermes',
    contextId: 'c1',
    messageId: `m${seq}`,
    state: 'TASK_STATE_COMPLETED',
    history: [],
    createdAt: 1000,
    updatedAt: 1000,
    ...over,
  });
  const planOf = (db: SqliteDatabase, statement: { sql: string; params: Record<string, unknown> }) =>
    (db.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`).all(statement.params) as Array<{ detail: string }>).map((r) => r.detail);

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-a2a-page-'));
    file = taskDatabasePath(dir);
    store = new A2aTaskStore(file, policy);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('plans', () => {
    let db: SqliteDatabase;
    beforeEach(async () => {
      await store.insert(task({}));
      db = openSqlite(file);
    });
    afterEach(() => db.close());

    it.each(QUERIES)('a page with %s reads the recency index in order, with no sort', (_name, filters) => {
      const plan = planOf(db, taskPageSql({ peer: 'hermes', limit: 50, ...filters }).page);
      expect(plan).toEqual([expect.stringMatching(new RegExp(`^SEARCH tasks USING (COVERING )?INDEX ${RECENCY_INDEX} \\(peer=\\?`))]);
      expect(plan.join(' | ')).not.toMatch(/TEMP B-TREE/);
    });

    it.each([
      ['no filter', {}],
      ['statusTimestampAfter', { updatedSince: 1000 }],
    ])('the count with %s reads an index alone, never a row', (_name, filters) => {
      const plan = planOf(db, taskPageSql({ peer: 'hermes', limit: 50, ...filters }).count);
      expect(plan).toEqual([expect.stringMatching(/^SEARCH tasks USING COVERING INDEX tasks_by_peer\w* \(peer=\?/)]);
    });

    it('the count with contextId or status walks the recency range of the peer, not the table', () => {
      const plan = planOf(db, taskPageSql({ peer: 'hermes', limit: 50, contextId: 'c1', updatedSince: 1000 }).count);
      expect(plan).toEqual([
        expect.stringMatching(new RegExp(`^SEARCH tasks USING INDEX ${RECENCY_INDEX} \\(peer=\\? AND updated_at>\\?\\)`)),
      ]);
    });
  });

  it('gives a database without the recency index (an older version) the index when it is opened', async () => {
    await store.insert(task({}));
    await store.close();
    const db = openSqlite(file);
    db.exec(`DROP INDEX ${RECENCY_INDEX}`);
    db.close();
    store = new A2aTaskStore(file, policy);
    expect((await store.page({ peer: 'hermes', limit: 5 })).total).toBe(1);
    const check = openSqlite(file);
    const indexes = (
      check.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'tasks'").all() as Array<{ name: string }>
    ).map((r) => r.name);
    check.close();
    expect(indexes).toContain(RECENCY_INDEX);
  });

  it('walks pages newest status first, ties by row, each task once, with the filters applied on every page', async () => {
    // Status timestamps with ties (three tasks at 3000, two at 2000), two contexts, another peer interleaved.
    const times = [1000, 3000, 2000, 3000, 2000, 3000, 1500];
    const mine = times.map((updatedAt, i) => task({ updatedAt, contextId: i % 2 ? 'c2' : 'c1' }));
    for (const t of mine) {
      await store.insert(t);
      await store.insert(task({ peer: 'iris', updatedAt: t.updatedAt }));
    }
    const newestFirst = mine
      .map((t, order) => ({ t, order }))
      .sort((a, b) => b.t.updatedAt - a.t.updatedAt || b.order - a.order)
      .map(({ t }) => t.id);

    const walk = async (filters: Omit<TaskPageQuery, 'peer' | 'limit' | 'after'>) => {
      const ids: string[] = [];
      const totals = new Set<number>();
      let after: TaskPageQuery['after'];
      do {
        const page = await store.page({ peer: 'hermes', limit: 2, ...filters, ...(after ? { after } : {}) });
        ids.push(...page.tasks.map((t) => t.id));
        totals.add(page.total);
        after = page.next;
      } while (after);
      return { ids, totals: [...totals] };
    };

    expect(await walk({})).toEqual({ ids: newestFirst, totals: [7] });
    const c2 = mine.filter((t) => t.contextId === 'c2').map((t) => t.id);
    expect(await walk({ contextId: 'c2' })).toEqual({ ids: newestFirst.filter((id) => c2.includes(id)), totals: [3] });
    const recent = mine.filter((t) => t.updatedAt >= 2000).map((t) => t.id);
    expect(await walk({ updatedSince: 2000 })).toEqual({ ids: newestFirst.filter((id) => recent.includes(id)), totals: [5] });
  });
});
