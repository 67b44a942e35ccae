import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openSqlite } from '../../../../common/storage/sqlite';
import { A2aTaskStore, taskDatabasePath } from './sqlite-task.store';
import { SqlitePushStore } from './sqlite-push.store';
import type { TaskEvent } from '../../model/task-events';
import type { A2aTask } from '../../model/task';

const HOUR = 3_600_000;
const policy = { terminalRetentionMs: 24 * HOUR, maxTerminalPerPeer: 10, idleExpiryMs: HOUR };

/**
 * Push rows beside the task events in the task database (real SQLite): what the trigger reads. The events themselves:
 * test/support/task-store-contract.ts; the push rows' behaviour: test/support/push-store-contract.ts.
 */
describe('task events and push rows (SQLite)', () => {
  let dir: string;
  let file: string;
  let store: A2aTaskStore;
  let published: TaskEvent[];
  let queued: number;
  let n = 0;
  const task = (over: Partial<A2aTask> = {}): A2aTask => ({
    id: `t${++n}`,
    peer: 'hermes',
    contextId: 'ctx-1',
    messageId: `m${n}`,
    state: 'TASK_STATE_WORKING',
    history: [],
    createdAt: 1000,
    updatedAt: 1000,
    ...over,
  });

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-task-events-'));
    file = taskDatabasePath(dir);
    published = [];
    queued = 0;
    store = new A2aTaskStore(file, policy, { onEvents: (events) => published.push(...events), onPushQueued: () => queued++ });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('events, push configs and deliveries go with their task (the per-peer cap here), by index', async () => {
    await store.close();
    store = new A2aTaskStore(file, { ...policy, maxTerminalPerPeer: 1 });
    const push = new SqlitePushStore(store);
    const first = task();
    await store.insert(first);
    await push.save(first, { id: 'c1', url: 'https://h.example/x', wire: '1.0' }, 10);
    await store.transition(first.id, { state: 'TASK_STATE_COMPLETED' }, 2000);
    // The cap is 1 finished task per peer: the next one pushes the first out.
    const second = task();
    await store.insert(second);
    await store.transition(second.id, { state: 'TASK_STATE_COMPLETED' }, 3000);
    expect(await store.get(first.id)).toBeUndefined();
    await store.close();
    const db = openSqlite(file);
    try {
      const count = (table: string) => (db.prepare(`SELECT COUNT(*) AS c FROM ${table}`).get() as { c: number }).c;
      expect([count('task_events'), count('push_configs'), count('push_outbox')]).toEqual([1, 0, 0]);
      // What the trigger runs for each deleted task reads an index, never the whole table.
      for (const sql of [
        'DELETE FROM task_events WHERE task_seq = 1',
        'DELETE FROM push_configs WHERE task_seq = 1',
        'DELETE FROM push_outbox WHERE task_seq = 1',
      ]) {
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((r) => r.detail).join(' ');
        expect([sql, /SEARCH/.test(plan)]).toEqual([sql, true]);
      }
    } finally {
      db.close();
    }
    store = new A2aTaskStore(file, policy);
  });
});
