import { Client } from 'pg';
import { PgTaskStore } from '../../src/modules/a2a-channel/store/postgres/pg-task.store';
import { describeTaskStoreContract } from '../support/task-store-contract';
import type { RetentionPolicy } from '../../src/modules/a2a-channel/store/task-store.port';
import { postgresForSuite } from './support/postgres';
import { TASK_MIGRATIONS, TASK_MIGRATION_SCOPE } from '../../src/modules/a2a-channel/store/postgres/pg-task-schema';
import { createPostgresPool, migrate } from '../../src/common/storage/postgres';

jest.setTimeout(60_000);

const policy: RetentionPolicy = { terminalRetentionMs: 86_400_000, maxTerminalPerPeer: 3, idleExpiryMs: 3_600_000 };
const postgres = postgresForSuite('tasks');

describeTaskStoreContract('PostgreSQL', async () => {
  const url = await postgres.freshDatabase();
  const opened: PgTaskStore[] = [];
  return {
    open: async (retention, hooks) => {
      const store = await PgTaskStore.open(url, retention, { owner: 'replica-a', poolSize: 4 }, hooks);
      opened.push(store);
      return store;
    },
    dispose: async () => {
      for (const store of opened) await store.close();
    },
  };
});

describe('PgTaskStore (PostgreSQL only)', () => {
  const task = (id: string) => ({
    id,
    peer: 'hermes',
    contextId: 'ctx',
    messageId: `m-${id}`,
    state: 'TASK_STATE_WORKING' as const,
    history: [],
    createdAt: 1000,
    updatedAt: 1000,
  });

  it('applies the migrations once when replicas start together (pg_advisory_lock)', async () => {
    const url = await postgres.freshDatabase();
    const stores = await Promise.all([1, 2, 3, 4].map((i) => PgTaskStore.open(url, policy, { owner: `replica-${i}`, poolSize: 2 })));
    try {
      const client = new Client({ connectionString: url });
      await client.connect();
      const rows = (await client.query('SELECT scope, version FROM schema_migrations ORDER BY version')).rows as unknown[];
      await client.end();
      expect(rows).toEqual(TASK_MIGRATIONS.map((m) => ({ scope: 'a2a-tasks', version: m.version })));
      await stores[0].insert(task('shared'));
      expect(await stores[3].get('shared')).toMatchObject({ id: 'shared', state: 'TASK_STATE_WORKING' });
    } finally {
      for (const store of stores) await store.close();
    }
  });

  it('fails at restart only the tasks the restarting replica started', async () => {
    const url = await postgres.freshDatabase();
    const a = await PgTaskStore.open(url, policy, { owner: 'replica-a' });
    const b = await PgTaskStore.open(url, policy, { owner: 'replica-b' });
    try {
      await a.insert(task('of-a'));
      await b.insert(task('of-b'));
      expect(await b.failUnsettled(() => 'restarted', 2000)).toBe(1);
      expect((await a.get('of-a'))?.state).toBe('TASK_STATE_WORKING');
      expect((await a.get('of-b'))?.state).toBe('TASK_STATE_FAILED');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("fails at start the tasks left on its state dir, whichever process id ran them, and no other dir's", async () => {
    const url = await postgres.freshDatabase();
    const before = await PgTaskStore.open(url, policy, { owner: 'run-1', stateDir: 'host:/state-a' });
    const other = await PgTaskStore.open(url, policy, { owner: 'run-2', stateDir: 'host:/state-b' });
    await before.insert(task('left'));
    await other.insert(task('elsewhere'));
    await before.close();
    const after = await PgTaskStore.open(url, policy, { owner: 'run-3', stateDir: 'host:/state-a' });
    try {
      expect(await after.failUnsettled(() => 'restarted', 2000)).toBe(1);
      expect([(await after.get('left'))?.state, (await after.get('elsewhere'))?.state]).toEqual([
        'TASK_STATE_FAILED',
        'TASK_STATE_WORKING',
      ]);
    } finally {
      await after.close();
      await other.close();
    }
  });

  it("fails a leased owner's unsettled tasks exactly once when two replicas sweep it together, and nobody else's", async () => {
    const url = await postgres.freshDatabase();
    const roomy = { ...policy, maxTerminalPerPeer: 100 };
    const dead = await PgTaskStore.open(url, roomy, { owner: 'dead', leased: () => true });
    const unleased = await PgTaskStore.open(url, roomy, { owner: 'alone', leased: () => false });
    const published: string[][] = [[], []];
    const sweepers = await Promise.all(
      [0, 1].map((i) =>
        PgTaskStore.open(
          url,
          roomy,
          { owner: `live-${i}`, leased: () => true },
          { onEvents: (events) => published[i].push(...events.map((e) => e.taskId)) },
        ),
      ),
    );
    try {
      for (let i = 0; i < 6; i++) await dead.insert(task(`dead-${i}`));
      await dead.insert({ ...task('dead-done'), state: 'TASK_STATE_COMPLETED' });
      await unleased.insert(task('alone-1'));
      await sweepers[0].insert(task('live-1'));
      expect(await sweepers[1].unsettledByOwner()).toEqual([
        { owner: 'alone', leased: false, tasks: 1 },
        { owner: 'dead', leased: true, tasks: 6 },
        { owner: 'live-0', leased: true, tasks: 1 },
      ]);
      const [a, b] = await Promise.all(sweepers.map((s) => s.failOwned('dead', 'stopped', 3000)));
      expect(a.length + b.length).toBe(6);
      expect([...a, ...b].map((t) => t.id).sort()).toEqual([0, 1, 2, 3, 4, 5].map((i) => `dead-${i}`));
      // One status event per task, from whichever replica wrote it.
      expect([...published[0], ...published[1]].sort()).toEqual([0, 1, 2, 3, 4, 5].map((i) => `dead-${i}`));
      const failed = await sweepers[0].get('dead-3');
      expect([failed?.state, failed?.statusMessage?.text]).toEqual(['TASK_STATE_FAILED', 'stopped']);
      expect((await sweepers[0].get('dead-done'))?.state).toBe('TASK_STATE_COMPLETED');
      expect(await sweepers[0].failOwned('alone', 'stopped', 3000)).toEqual([]);
      expect(await sweepers[0].unsettledByOwner()).toEqual([
        { owner: 'alone', leased: false, tasks: 1 },
        { owner: 'live-0', leased: true, tasks: 1 },
      ]);
    } finally {
      for (const store of [dead, unleased, ...sweepers]) await store.close();
    }
  });

  /** The peer's rows and its kept count, read past the store. */
  async function peerRows(url: string, peer: string): Promise<{ ids: string[]; counted: number }> {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const rows = await client.query<{ id: string }>('SELECT id FROM tasks WHERE peer = $1 AND terminal ORDER BY seq', [peer]);
      const count = await client.query<{ terminal: string }>('SELECT terminal FROM task_peer_counts WHERE peer = $1', [peer]);
      return { ids: rows.rows.map((r) => r.id), counted: Number(count.rows[0]?.terminal ?? 0) };
    } finally {
      await client.end();
    }
  }

  /** `count` finished tasks of hermes, `old0` … written straight into the table, as an earlier version left them. */
  async function insertOldFinished(pool: ReturnType<typeof createPostgresPool>, count: number): Promise<void> {
    for (let i = 0; i < count; i++)
      await pool.query(
        `INSERT INTO tasks (id, peer, context_id, message_id, state, terminal, created_at, updated_at, owner)
         VALUES ($1, 'hermes', 'ctx', $2, 'TASK_STATE_COMPLETED', true, 1000, 1000, 'old')`,
        [`old${i}`, `m-old${i}`],
      );
  }

  it('keeps a peer at its cap when two replicas finish its tasks at once, inserted finished or changed to finished', async () => {
    const url = await postgres.freshDatabase();
    const cap: RetentionPolicy = { ...policy, maxTerminalPerPeer: 5 };
    const [a, b] = await Promise.all(['a', 'b'].map((r) => PgTaskStore.open(url, cap, { owner: `replica-${r}`, poolSize: 4 })));
    try {
      const finished = (id: string) => ({ ...task(id), state: 'TASK_STATE_COMPLETED' as const });
      await Promise.all([a.insert(task('w1')), b.insert(task('w2'))]);
      await Promise.all([
        ...Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).insert(finished(`f${i}`))),
        a.transition('w1', { state: 'TASK_STATE_COMPLETED' }, 2000),
        b.transition('w2', { state: 'TASK_STATE_FAILED' }, 2000),
      ]);
      const after = await peerRows(url, 'hermes');
      expect(after.ids).toHaveLength(5);
      expect(after.counted).toBe(5);
      // The next finished task pushes out exactly the oldest one.
      await a.insert(finished('last'));
      const settled = await peerRows(url, 'hermes');
      expect(settled.counted).toBe(5);
      expect(settled.ids).toHaveLength(5);
      expect(settled.ids).toContain('last');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('counts the finished tasks a database of the earlier layout holds, and trims them at the next finished task', async () => {
    const url = await postgres.freshDatabase();
    const pool = createPostgresPool(url, { max: 1 });
    await migrate(pool, TASK_MIGRATION_SCOPE, TASK_MIGRATIONS.slice(0, 3));
    await insertOldFinished(pool, 8);
    await pool.end();
    const store = await PgTaskStore.open(url, { ...policy, maxTerminalPerPeer: 4 }, { owner: 'replica-new' });
    try {
      expect((await peerRows(url, 'hermes')).counted).toBe(8);
      await store.insert({ ...task('new'), state: 'TASK_STATE_COMPLETED' });
      expect(await peerRows(url, 'hermes')).toEqual({ ids: ['old5', 'old6', 'old7', 'new'], counted: 4 });
    } finally {
      await store.close();
    }
  });

  it('counts a batch of several peers once per peer, trims each to its cap, and lowers each count on a sweep', async () => {
    const url = await postgres.freshDatabase();
    const store = await PgTaskStore.open(url, { ...policy, maxTerminalPerPeer: 4 }, { owner: 'replica-a', poolSize: 4 });
    const client = new Client({ connectionString: url });
    try {
      await client.connect();
      const peers = ['zeus', 'hermes', 'athena'];
      const finished = (i: number) => ({ ...task(`b${i}`), peer: peers[i % 3], state: 'TASK_STATE_COMPLETED' as const, updatedAt: 9e12 });
      // Submitted together, so the group commit writes them in statements that each span the three peers.
      await Promise.all(Array.from({ length: 30 }, (_, i) => store.insert(finished(i))));
      const counts = await client.query<{ peer: string; terminal: string }>('SELECT peer, terminal FROM task_peer_counts ORDER BY peer');
      expect(counts.rows.map((r) => [r.peer, Number(r.terminal)])).toEqual([
        ['athena', 4],
        ['hermes', 4],
        ['zeus', 4],
      ]);
      const kept = await Promise.all(peers.map((peer) => peerRows(url, peer)));
      for (const rows of kept) expect(rows.ids).toHaveLength(4);
      // One kept task of each peer made old: the sweep deletes the three in one statement, and each count follows.
      await client.query('UPDATE tasks SET updated_at = 1000 WHERE id = ANY($1)', [kept.map((rows) => rows.ids[0])]);
      await store.sweep(1000 + policy.terminalRetentionMs, 'expired');
      for (const [n, peer] of peers.entries()) expect(await peerRows(url, peer)).toEqual({ ids: kept[n].ids.slice(1), counted: 3 });
    } finally {
      await client.end().catch(() => undefined);
      await store.close();
    }
  });

  it('lets a retention sweep and a peer finishing a task at its cap wait for each other instead of deadlocking', async () => {
    const url = await postgres.freshDatabase();
    const store = await PgTaskStore.open(url, { ...policy, maxTerminalPerPeer: 3 }, { owner: 'replica-a' });
    const other = new Client({ connectionString: url });
    try {
      const pool = createPostgresPool(url, { max: 1 });
      await insertOldFinished(pool, 5);
      await pool.end();
      await store.insert(task('w'));
      // Another replica finishes w and has not committed yet: it holds the peer's count, its trim runs at COMMIT.
      await other.connect();
      await other.query('BEGIN');
      await other.query(
        `UPDATE tasks SET state = 'TASK_STATE_COMPLETED', terminal = true, updated_at = 5000
         WHERE id = 'w' AND set_config('clawgate.kept_tasks_per_peer', '3', true) IS NOT NULL`,
      );
      // The sweep deletes the same old rows the trim will; it must queue behind the count, not lock rows first.
      const sweeping = store.sweep(1000 + policy.terminalRetentionMs, 'expired');
      await new Promise((r) => setTimeout(r, 500));
      await other.query('COMMIT');
      const outcome = await sweeping;
      expect(outcome.expired).toEqual([]);
      expect(await peerRows(url, 'hermes')).toEqual({ ids: ['w'], counted: 1 });
    } finally {
      await other.end().catch(() => undefined);
      await store.close();
    }
  });

  it('tells which tasks no stream follows, so their events need not leave the replica, until one is marked followed', async () => {
    const url = await postgres.freshDatabase();
    const commits: Array<{ tasks: string[]; unfollowed: string[] }> = [];
    const store = await PgTaskStore.open(
      url,
      policy,
      { owner: 'replica-a' },
      { onEvents: (events, unfollowed) => commits.push({ tasks: events.map((e) => e.taskId), unfollowed: [...(unfollowed ?? [])] }) },
    );
    try {
      await store.insert(task('quiet'));
      await store.insert(task('watched'));
      const chunk = { artifactId: 'a-1', text: 'hi', append: false, lastChunk: false };
      await store.appendArtifact('quiet', chunk);
      await store.transition('quiet', { state: 'TASK_STATE_COMPLETED' }, 2000);
      await store.follow('watched');
      await store.appendArtifact('watched', chunk);
      await store.transition('watched', { state: 'TASK_STATE_COMPLETED' }, 2000);
      expect(commits.map((c) => c.unfollowed)).toEqual([['quiet'], ['quiet'], [], []]);
      expect(commits.map((c) => c.tasks[0])).toEqual(['quiet', 'quiet', 'watched', 'watched']);
      // Marking twice is no error.
      await store.follow('watched');
    } finally {
      await store.close();
    }
  });

  it('names the server, never the password, when it cannot start', async () => {
    const closed = `postgres://clawgate:do-not-print-me@127.0.0.1:${postgres.server.port + 1}/nowhere`;
    await expect(PgTaskStore.open(closed, policy, { owner: 'x' })).rejects.toThrow(/127\.0\.0\.1:\d+\/nowhere is unreachable/);
    const wrongPassword = (await postgres.freshDatabase()).replace(/:[^:@/]+@/, ':do-not-print-me@');
    const err = await PgTaskStore.open(wrongPassword, policy, { owner: 'x' }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/the A2A task store could not start: PostgreSQL at 127\.0\.0\.1:\d+\/tasks_\d+/);
    expect(err?.message).toContain('password authentication failed');
    expect(err?.message).not.toContain('do-not-print-me');
  });
});
