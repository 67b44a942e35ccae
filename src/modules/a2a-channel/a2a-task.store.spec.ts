import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openSqlite } from '../../common/storage/sqlite';
import { A2aTaskStore, taskDatabasePath } from './a2a-task.store';
import { prepareStatements } from './task-rows';
import type { A2aTask } from './task-model';

const HOUR = 3_600_000;
const policy = { terminalRetentionMs: 24 * HOUR, maxTerminalPerPeer: 3, idleExpiryMs: HOUR };

describe('A2aTaskStore (SQLite)', () => {
  let dir: string;
  let file: string;
  let store: A2aTaskStore;
  let seq = 0;
  const task = (over: Partial<A2aTask> = {}): A2aTask => ({
    id: `t${++seq}`,
    peer: 'hermes',
    contextId: 'ctx-1',
    agentId: 'main',
    sessionKey: 'agent:main:a2a:default:direct:hermes:ctx-1',
    messageId: `m${seq}`,
    state: 'TASK_STATE_WORKING',
    history: [{ messageId: `m${seq}`, role: 'user', text: 'the task' }],
    createdAt: 1000,
    updatedAt: 1000,
    ...over,
  });

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

  it('keeps every field across a reopen (what a restarted process sees)', async () => {
    const t = task({ state: 'TASK_STATE_COMPLETED', artifact: { artifactId: 'a1', text: 'réponse ✓' }, runId: 'r1', updatedAt: 2000 });
    const rejected = task({
      state: 'TASK_STATE_REJECTED',
      statusMessage: { messageId: 's1', text: 'no' },
      agentId: undefined,
      sessionKey: undefined,
    });
    await store.insert(t);
    await store.insert(rejected);
    await store.close();
    const reopened = new A2aTaskStore(file, policy);
    expect(await reopened.get(t.id)).toEqual(t);
    expect(await reopened.get(rejected.id)).toEqual(rejected);
    await reopened.close();
  });

  it('counts the tasks each peer created since a time, per agent, from the recency index', async () => {
    expect(await store.countsSince(['hermes'], 0)).toEqual([]);
    await store.insert(task({ createdAt: 500, updatedAt: 2500 }));
    await store.insert(task({ createdAt: 2000, updatedAt: 2000 }));
    await store.insert(task({ createdAt: 2100, updatedAt: 2200, agentId: 'expert' }));
    await store.insert(task({ createdAt: 2300, updatedAt: 2300, agentId: undefined }));
    await store.insert(task({ peer: 'iris', createdAt: 3000, updatedAt: 3000 }));
    expect(await store.countsSince(['hermes', 'iris', 'nobody'], 1500)).toEqual([
      { peer: 'hermes', agentId: null, count: 1 },
      { peer: 'hermes', agentId: 'expert', count: 1 },
      { peer: 'hermes', agentId: 'main', count: 1 },
      { peer: 'iris', agentId: 'main', count: 1 },
    ]);
    expect(await store.countsSince(['iris'], 3001)).toEqual([]);
    const db = openSqlite(file);
    const { countsSince } = prepareStatements(db);
    const plan = (
      db.prepare(`EXPLAIN QUERY PLAN ${(countsSince as unknown as { source: string }).source}`).all({ peer: 'hermes', since: 0 }) as Array<{
        detail: string;
      }>
    )
      .map((r) => r.detail)
      .join(' ');
    db.close();
    expect(plan).toContain('USING INDEX tasks_by_peer_recency (peer=? AND updated_at>?)');
  });

  it('applies a transition only while the task is unsettled: a late result is dropped', async () => {
    const t = task({ state: 'TASK_STATE_SUBMITTED' });
    await store.insert(t);
    const working = await store.transition(t.id, { state: 'TASK_STATE_WORKING', runId: 'run-1' }, 1100);
    expect(working).toMatchObject({ state: 'TASK_STATE_WORKING', runId: 'run-1', updatedAt: 1100 });
    const failed = await store.transition(t.id, { state: 'TASK_STATE_FAILED', statusMessage: { messageId: 's', text: 'boom' } }, 1200);
    expect(failed).toMatchObject({ state: 'TASK_STATE_FAILED', runId: 'run-1', statusMessage: { text: 'boom' } });
    expect(
      await store.transition(t.id, { state: 'TASK_STATE_COMPLETED', artifact: { artifactId: 'a', text: 'late' } }, 1300),
    ).toBeUndefined();
    expect(await store.get(t.id)).toEqual(failed);
    expect(await store.transition('unknown', { state: 'TASK_STATE_WORKING' }, 1)).toBeUndefined();
  });

  it('fails every unsettled task with the reason for its state (startup after a crash)', async () => {
    const working = task();
    const submitted = task({ state: 'TASK_STATE_SUBMITTED' });
    const asking = task({ peer: 'iris', state: 'TASK_STATE_INPUT_REQUIRED' });
    const done = task({ state: 'TASK_STATE_COMPLETED', artifact: { artifactId: 'a', text: 'ok' } });
    for (const t of [working, submitted, asking, done]) await store.insert(t);
    const reason = (state: string) =>
      state === 'TASK_STATE_INPUT_REQUIRED' ? 'no run left to answer' : 'gateway restarted before the agent settled';
    expect(await store.failUnsettled(reason, 5000)).toBe(3);
    expect(await store.get(asking.id)).toMatchObject({ state: 'TASK_STATE_FAILED', statusMessage: { text: 'no run left to answer' } });
    for (const t of [working, submitted]) {
      expect(await store.get(t.id)).toMatchObject({
        state: 'TASK_STATE_FAILED',
        statusMessage: { text: 'gateway restarted before the agent settled' },
        updatedAt: 5000,
      });
    }
    expect((await store.get(done.id))?.state).toBe('TASK_STATE_COMPLETED');
  });

  it('appends every status message (the agent’s) and every answer (the peer’s) to the history, in order', async () => {
    const t = task();
    await store.insert(t);
    await store.transition(t.id, { state: 'TASK_STATE_INPUT_REQUIRED', statusMessage: { messageId: 'q1', text: 'Which city?' } }, 1100);
    await store.transition(t.id, { state: 'TASK_STATE_WORKING', peerMessage: { messageId: 'a1', text: 'Paris' } }, 1200);
    await store.transition(t.id, { state: 'TASK_STATE_COMPLETED', artifact: { artifactId: 'r', text: 'Booked' } }, 1300);
    expect((await store.get(t.id))?.history).toEqual([
      { messageId: t.messageId, role: 'user', text: 'the task' },
      { messageId: 'q1', role: 'agent', text: 'Which city?' },
      { messageId: 'a1', role: 'user', text: 'Paris' },
    ]);
    await expect(
      store.transition(
        t.id,
        { state: 'TASK_STATE_FAILED', statusMessage: { messageId: 's', text: 'x' }, peerMessage: { messageId: 'p', text: 'y' } },
        1,
      ),
    ).rejects.toThrow('one history message');
  });

  it('opens a database written before tasks kept a history: the column is added, old rows read with an empty one', async () => {
    const { openSqlite } = await import('../../common/storage/sqlite');
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

  it('keeps at most maxTerminalPerPeer terminal tasks per peer, dropping the oldest first', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const t = task({ state: 'TASK_STATE_SUBMITTED' });
      ids.push(t.id);
      await store.insert(t);
    }
    await store.insert(task({ peer: 'iris', state: 'TASK_STATE_COMPLETED' }));
    for (const id of ids) await store.transition(id, { state: 'TASK_STATE_COMPLETED' }, 2000);
    const left = (await store.list({ peer: 'hermes', limit: 10 })).map((t) => t.id);
    expect(left).toEqual([ids[4], ids[3], ids[2]]);
    expect(await store.list({ peer: 'iris', limit: 10 })).toHaveLength(1);
  });

  it('trims a peer over the cap once per commit, keeping its newest, and never shows more than the cap', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const t = task({ state: 'TASK_STATE_SUBMITTED' });
      ids.push(t.id);
      await store.insert(t);
    }
    // One event-loop turn: all six settle in one batch, and the cap is applied to the batch as a whole.
    const settled = await Promise.all(ids.map((id) => store.transition(id, { state: 'TASK_STATE_COMPLETED' }, 2000)));
    expect(settled.every((t) => t?.state === 'TASK_STATE_COMPLETED')).toBe(true);
    expect((await store.list({ peer: 'hermes', limit: 10 })).map((t) => t.id)).toEqual([ids[5], ids[4], ids[3]]);
    // The count is right afterwards: one more terminal task pushes out exactly one.
    const next = task({ state: 'TASK_STATE_REJECTED' });
    await store.insert(next);
    expect((await store.list({ peer: 'hermes', limit: 10 })).map((t) => t.id)).toEqual([next.id, ids[5], ids[4]]);
  });

  it('keeps the cap across restarts, crash recovery and sweeps', async () => {
    for (let i = 0; i < 3; i++) await store.insert(task({ state: 'TASK_STATE_COMPLETED' }));
    const unsettled = [task(), task()];
    for (const t of unsettled) await store.insert(t);
    // Crash recovery makes two more terminal: the two oldest completed ones go.
    await store.failUnsettled(() => 'restarted', 2000);
    expect((await store.list({ peer: 'hermes', limit: 10 })).map((t) => t.state)).toEqual([
      'TASK_STATE_FAILED',
      'TASK_STATE_FAILED',
      'TASK_STATE_COMPLETED',
    ]);
    await store.close();
    // A process with a smaller cap trims on the peer's next terminal write.
    store = new A2aTaskStore(file, { ...policy, maxTerminalPerPeer: 2 });
    const next = task({ state: 'TASK_STATE_REJECTED' });
    await store.insert(next);
    expect((await store.list({ peer: 'hermes', limit: 10 })).map((t) => t.id)).toEqual([next.id, unsettled[1].id]);
    // After a sweep removed rows, the count is taken afresh.
    await store.sweep(2000 + 24 * HOUR, 'x');
    expect(await store.list({ peer: 'hermes', limit: 10 })).toEqual([]);
    for (let i = 0; i < 3; i++) await store.insert(task({ state: 'TASK_STATE_COMPLETED' }));
    expect(await store.list({ peer: 'hermes', limit: 10 })).toHaveLength(2);
  });

  it('reads the cap at each write: once lowered, a peer is trimmed when its next task finishes', async () => {
    let cap = 4;
    await store.close();
    store = new A2aTaskStore(file, {
      ...policy,
      get maxTerminalPerPeer() {
        return cap;
      },
    });
    const done: string[] = [];
    for (let i = 0; i < 4; i++) {
      const t = task({ state: 'TASK_STATE_COMPLETED' });
      done.push(t.id);
      await store.insert(t);
    }
    cap = 2;
    // Not trimmed by another peer's write, nor by a task of its own that is still running.
    await store.insert(task({ peer: 'iris', state: 'TASK_STATE_COMPLETED' }));
    const running = task();
    await store.insert(running);
    expect(await store.list({ peer: 'hermes', limit: 10 })).toHaveLength(5);
    await store.transition(running.id, { state: 'TASK_STATE_COMPLETED' }, 2000);
    expect((await store.list({ peer: 'hermes', limit: 10 })).map((t) => t.id)).toEqual([running.id, done[3]]);
    // Raised again: the peer grows up to the new cap and no further.
    cap = 3;
    const later = [task({ state: 'TASK_STATE_COMPLETED' }), task({ state: 'TASK_STATE_COMPLETED' })];
    for (const t of later) await store.insert(t);
    expect((await store.list({ peer: 'hermes', limit: 10 })).map((t) => t.id)).toEqual([later[1].id, later[0].id, running.id]);
  });

  it("keeps a page's unfiltered total (held in memory after the first count) equal to the rows through every kind of write", async () => {
    const stored = async () => (await store.list({ peer: 'hermes', limit: 100 })).length;
    const total = async () => (await store.page({ peer: 'hermes', limit: 1 })).total;
    const expectExact = async (n: number) => {
      expect(await stored()).toBe(n);
      expect(await total()).toBe(n);
    };
    await store.insert(task({ state: 'TASK_STATE_COMPLETED' }));
    await expectExact(1);
    // A batch over the cap (3) is trimmed in its own commit; another peer's task changes nothing here.
    await Promise.all([0, 1, 2].map(() => store.insert(task({ state: 'TASK_STATE_COMPLETED' }))));
    await store.insert(task({ peer: 'iris' }));
    await expectExact(3);
    const running = task();
    await store.insert(running);
    await expectExact(4);
    // A failed write (a duplicate id) rolls back with its batch. Matched by its code: the SQLite error class is
    // loaded once per test process, so an instanceof Error check fails in every test file but the first to load it.
    await expect(store.insert({ ...running })).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
    await expectExact(4);
    await store.transition(running.id, { state: 'TASK_STATE_FAILED', statusMessage: { messageId: 's', text: 'x' } }, 3000);
    await expectExact(3);
    await store.sweep(3000 + 24 * HOUR, 'x');
    await expectExact(0);
    await store.insert(task({ state: 'TASK_STATE_COMPLETED' }));
    await expectExact(1);
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

  it('sweeps: idle unsettled tasks expire after 1 h, terminal ones go after 24 h', async () => {
    const idle = task({ updatedAt: 0 });
    const fresh = task({ updatedAt: 30 * 60_000 });
    const old = task({ state: 'TASK_STATE_COMPLETED', updatedAt: 0 });
    for (const t of [idle, fresh, old]) await store.insert(t);
    const first = await store.sweep(HOUR, 'Task expired before the agent settled');
    expect(first.expired.map((t) => t.id)).toEqual([idle.id]);
    expect(first.expired[0]).toMatchObject({
      state: 'TASK_STATE_FAILED',
      statusMessage: { text: 'Task expired before the agent settled' },
    });
    expect(first.deleted).toBe(0);
    expect((await store.get(fresh.id))?.state).toBe('TASK_STATE_WORKING');
    const later = await store.sweep(24 * HOUR, 'x');
    expect(later.deleted).toBe(1);
    expect(await store.get(old.id)).toBeUndefined();
    expect(await store.get(idle.id)).toBeDefined(); // terminal since 1 h only
  });

  it('lists newest first with combined filters', async () => {
    const a = task({ contextId: 'c1' });
    const b = task({ contextId: 'c2', state: 'TASK_STATE_COMPLETED' });
    const c = task({ contextId: 'c1', peer: 'iris' });
    for (const t of [a, b, c]) await store.insert(t);
    expect((await store.list({ limit: 10 })).map((t) => t.id)).toEqual([c.id, b.id, a.id]);
    expect((await store.list({ limit: 10, contextId: 'c1', peer: 'hermes' })).map((t) => t.id)).toEqual([a.id]);
    expect((await store.list({ limit: 10, state: 'TASK_STATE_COMPLETED' })).map((t) => t.id)).toEqual([b.id]);
    expect(await store.list({ limit: 1 })).toHaveLength(1);
  });

  it('refuses use after close', async () => {
    await store.insert(task());
    await store.close();
    await expect(store.get('t1')).rejects.toThrow('closed');
  });
});
