import type { TaskEvent } from '../../src/modules/a2a-channel/model/task-events';
import type { A2aTask } from '../../src/modules/a2a-channel/model/task';
import type { RetentionPolicy, TaskStore, TaskStoreHooks } from '../../src/modules/a2a-channel/store/task-store.port';

/** A builder of working tasks of peer `hermes`, each with a new id and message id; `over` sets any field. */
export function taskBuilder(): (over?: Partial<A2aTask>) => A2aTask {
  let seq = 0;
  return (over = {}) => {
    seq++;
    return {
      id: `t${seq}`,
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
    };
  };
}

/** Storage for one test: opening it twice is what a restarted process sees. */
export interface TaskStoreFixture {
  open(retention: RetentionPolicy, hooks?: TaskStoreHooks): Promise<TaskStore>;
  /** Closes what is still open and removes the storage. */
  dispose(): Promise<void>;
}

const HOUR = 3_600_000;
const policy: RetentionPolicy = { terminalRetentionMs: 24 * HOUR, maxTerminalPerPeer: 3, idleExpiryMs: HOUR };

/**
 * What every TaskStore does (task-store.port.ts), run against each implementation: SQLite in `npm test`
 * (src/modules/a2a-channel/store/sqlite/sqlite-task.store.spec.ts), PostgreSQL in the system tier
 * (test/system/pg-task-store.system-spec.ts).
 */
export function describeTaskStoreContract(name: string, createFixture: () => Promise<TaskStoreFixture>): void {
  describe(`TaskStore contract: ${name}`, () => {
    let fixture: TaskStoreFixture;
    let store: TaskStore;
    let published: TaskEvent[];
    const task = taskBuilder();
    const reopen = async (retention: RetentionPolicy = policy) => {
      await store.close();
      store = await fixture.open(retention, { onEvents: (events) => published.push(...events) });
    };
    const ids = async (peer = 'hermes') => (await store.list({ peer, limit: 100 })).map((t) => t.id);

    beforeEach(async () => {
      fixture = await createFixture();
      published = [];
      store = await fixture.open(policy, { onEvents: (events) => published.push(...events) });
    });
    afterEach(async () => {
      await store.close();
      await fixture.dispose();
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
      await reopen();
      expect(await store.get(t.id)).toEqual(t);
      expect(await store.get(rejected.id)).toEqual(rejected);
      expect(await store.get('unknown')).toBeUndefined();
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
      await reopen();
      const reason = (state: string) =>
        state === 'TASK_STATE_INPUT_REQUIRED' ? 'no run left to answer' : 'gateway restarted before the agent settled';
      expect(await store.failUnsettled(reason, 5000)).toBe(3);
      expect(await store.get(asking.id)).toMatchObject({ state: 'TASK_STATE_FAILED', statusMessage: { text: 'no run left to answer' } });
      for (const t of [working, submitted])
        expect(await store.get(t.id)).toMatchObject({
          state: 'TASK_STATE_FAILED',
          statusMessage: { text: 'gateway restarted before the agent settled' },
          updatedAt: 5000,
        });
      expect((await store.get(done.id))?.state).toBe('TASK_STATE_COMPLETED');
      expect(await store.failUnsettled(reason, 6000)).toBe(0);
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
      const both = {
        state: 'TASK_STATE_FAILED',
        statusMessage: { messageId: 's', text: 'x' },
        peerMessage: { messageId: 'p', text: 'y' },
      } as const;
      await expect(store.transition(t.id, both, 1)).rejects.toThrow('one history message');
    });

    it('keeps a status message’s metadata (a refusal’s ErrorInfo) through a transition, an insert and a reopen, and in its event', async () => {
      const metadata = {
        'clawgate/error': { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'BUDGET_EXHAUSTED', domain: 'clawgate' },
      };
      const failed = { messageId: 'f1', text: 'budget "x" exhausted', metadata };
      const t = task();
      await store.insert(t);
      await store.transition(t.id, { state: 'TASK_STATE_FAILED', statusMessage: failed }, 1100);
      // Settled at once (a blocking caller's deferred row): inserted with its status message.
      const settled = task({
        state: 'TASK_STATE_FAILED',
        statusMessage: failed,
        history: [
          { messageId: 'mx', role: 'user', text: 'x' },
          { ...failed, role: 'agent' },
        ],
      });
      await store.insert(settled);
      // An ordinary status message has none.
      const plain = task();
      await store.insert(plain);
      await store.transition(plain.id, { state: 'TASK_STATE_FAILED', statusMessage: { messageId: 'f2', text: 'agent run failed' } }, 1100);
      await reopen();
      expect((await store.get(t.id))?.statusMessage).toEqual(failed);
      expect((await store.get(t.id))?.history.at(-1)).toEqual({ ...failed, role: 'agent' });
      expect((await store.get(settled.id))?.statusMessage).toEqual(failed);
      expect((await store.get(plain.id))?.statusMessage).toEqual({ messageId: 'f2', text: 'agent run failed' });
      const [event] = await store.eventsAfter(t.id, 0);
      expect(JSON.parse(event.body).statusUpdate.status.message.metadata).toEqual(metadata);
    });

    it('numbers a task’s events from 1, publishes them after their commit, and replays them from any number', async () => {
      const t = task({ history: [] });
      await store.insert(t);
      expect(published).toEqual([]);
      expect(await store.appendArtifact(t.id, { artifactId: 'a', text: 'hel', append: false, lastChunk: false })).toBe(true);
      expect(await store.appendArtifact(t.id, { artifactId: 'a', text: 'lo', append: true, lastChunk: true })).toBe(true);
      expect((await store.get(t.id))?.artifact).toEqual({ artifactId: 'a', text: 'hello' });
      await store.transition(t.id, { state: 'TASK_STATE_COMPLETED' }, 2000);
      expect(published.map((e) => [e.n, e.closes])).toEqual([
        [1, false],
        [2, false],
        [3, true],
      ]);
      expect((await store.get(t.id))?.events).toBe(3);
      expect(await store.eventsAfter(t.id, 1)).toEqual(published.slice(1));
      expect(JSON.parse(published[2].body)).toEqual({
        statusUpdate: {
          taskId: t.id,
          contextId: 'ctx-1',
          status: { state: 'TASK_STATE_COMPLETED', timestamp: new Date(2000).toISOString() },
        },
      });
      expect(await store.appendArtifact(t.id, { artifactId: 'a', text: '!', append: true, lastChunk: false })).toBe(false);
      expect(await store.appendArtifact('unknown', { artifactId: 'a', text: '!', append: true, lastChunk: false })).toBe(false);
      expect(await store.eventsAfter('unknown', 0)).toEqual([]);
    });

    it('keeps the chunks of a streamed reply in call order when they are not awaited one by one', async () => {
      const t = task();
      await store.insert(t);
      const words = Array.from({ length: 20 }, (_, i) => `w${i} `);
      const written = words.map((text, i) => store.appendArtifact(t.id, { artifactId: 'a', text, append: i > 0, lastChunk: false }));
      const settled = store.transition(t.id, { state: 'TASK_STATE_COMPLETED' }, 2000);
      expect(await Promise.all(written)).toEqual(words.map(() => true));
      await settled;
      expect((await store.get(t.id))?.artifact?.text).toBe(words.join(''));
      expect(published.map((e) => e.n)).toEqual(words.map((_, i) => i + 1).concat(21));
    });

    it('keeps at most maxTerminalPerPeer terminal tasks per peer, dropping the oldest first; events go with them', async () => {
      const running: string[] = [];
      for (let i = 0; i < 5; i++) {
        const t = task({ state: 'TASK_STATE_SUBMITTED' });
        running.push(t.id);
        await store.insert(t);
      }
      await store.insert(task({ peer: 'iris', state: 'TASK_STATE_COMPLETED' }));
      for (const id of running) await store.transition(id, { state: 'TASK_STATE_COMPLETED' }, 2000);
      expect(await ids()).toEqual([running[4], running[3], running[2]]);
      expect(await ids('iris')).toHaveLength(1);
      expect(await store.eventsAfter(running[0], 0)).toEqual([]);
    });

    it('trims a peer over the cap when concurrent writes settle together, keeping its newest', async () => {
      const started: string[] = [];
      for (let i = 0; i < 6; i++) {
        const t = task({ state: 'TASK_STATE_SUBMITTED' });
        started.push(t.id);
        await store.insert(t);
      }
      const settled = await Promise.all(started.map((id) => store.transition(id, { state: 'TASK_STATE_COMPLETED' }, 2000)));
      expect(settled.every((t) => t?.state === 'TASK_STATE_COMPLETED')).toBe(true);
      expect(await ids()).toEqual([started[5], started[4], started[3]]);
      const next = task({ state: 'TASK_STATE_REJECTED' });
      await store.insert(next);
      expect(await ids()).toEqual([next.id, started[5], started[4]]);
    });

    it('keeps the cap across restarts, crash recovery and sweeps', async () => {
      for (let i = 0; i < 3; i++) await store.insert(task({ state: 'TASK_STATE_COMPLETED' }));
      const unsettled = [task(), task()];
      for (const t of unsettled) await store.insert(t);
      await store.failUnsettled(() => 'restarted', 2000);
      expect((await store.list({ peer: 'hermes', limit: 10 })).map((t) => t.state)).toEqual([
        'TASK_STATE_FAILED',
        'TASK_STATE_FAILED',
        'TASK_STATE_COMPLETED',
      ]);
      await reopen({ ...policy, maxTerminalPerPeer: 2 });
      const next = task({ state: 'TASK_STATE_REJECTED' });
      await store.insert(next);
      expect(await ids()).toEqual([next.id, unsettled[1].id]);
      await store.sweep(2000 + 24 * HOUR, 'x');
      expect(await ids()).toEqual([]);
      for (let i = 0; i < 3; i++) await store.insert(task({ state: 'TASK_STATE_COMPLETED' }));
      expect(await ids()).toHaveLength(2);
    });

    it('reads the cap at each write: once lowered, a peer is trimmed when its next task finishes', async () => {
      let cap = 4;
      await reopen({
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
      await store.insert(task({ peer: 'iris', state: 'TASK_STATE_COMPLETED' }));
      const running = task();
      await store.insert(running);
      expect(await ids()).toHaveLength(5);
      await store.transition(running.id, { state: 'TASK_STATE_COMPLETED' }, 2000);
      expect(await ids()).toEqual([running.id, done[3]]);
      cap = 3;
      const later = [task({ state: 'TASK_STATE_COMPLETED' }), task({ state: 'TASK_STATE_COMPLETED' })];
      for (const t of later) await store.insert(t);
      expect(await ids()).toEqual([later[1].id, later[0].id, running.id]);
    });

    it("keeps a page's total equal to the rows through every kind of write, a failed one included", async () => {
      const expectExact = async (n: number) => {
        expect(await ids()).toHaveLength(n);
        expect((await store.page({ peer: 'hermes', limit: 1 })).total).toBe(n);
      };
      await store.insert(task({ state: 'TASK_STATE_COMPLETED' }));
      await expectExact(1);
      await Promise.all([0, 1, 2].map(() => store.insert(task({ state: 'TASK_STATE_COMPLETED' }))));
      await store.insert(task({ peer: 'iris' }));
      await expectExact(3);
      const running = task();
      await store.insert(running);
      await expectExact(4);
      // A duplicate id is refused, and only that write.
      const results = await Promise.allSettled([store.insert({ ...running }), store.insert(task({ peer: 'iris' }))]);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
      await expectExact(4);
      expect(await ids('iris')).toHaveLength(2);
      await store.transition(running.id, { state: 'TASK_STATE_FAILED', statusMessage: { messageId: 's', text: 'x' } }, 3000);
      await expectExact(3);
      await store.sweep(3000 + 24 * HOUR, 'x');
      await expectExact(0);
    });

    it('pages a peer by last status change, newest first, with every filter and a keyset position', async () => {
      const at = [1000, 3000, 2000, 3000, 4000];
      const made = at.map((updatedAt, i) =>
        task({ updatedAt, contextId: i % 2 ? 'c2' : 'c1', state: i === 4 ? 'TASK_STATE_WORKING' : 'TASK_STATE_COMPLETED' }),
      );
      await reopen({ ...policy, maxTerminalPerPeer: 100 });
      for (const t of made) await store.insert(t);
      await store.insert(task({ peer: 'iris', updatedAt: 5000 }));
      const first = await store.page({ peer: 'hermes', limit: 2 });
      // Equal timestamps: the later row first.
      expect(first.tasks.map((t) => t.id)).toEqual([made[4].id, made[3].id]);
      expect(first.total).toBe(5);
      expect(first.next).toBeDefined();
      const second = await store.page({ peer: 'hermes', limit: 2, after: first.next });
      expect(second.tasks.map((t) => t.id)).toEqual([made[1].id, made[2].id]);
      const last = await store.page({ peer: 'hermes', limit: 2, after: second.next });
      expect([last.tasks.map((t) => t.id), last.next]).toEqual([[made[0].id], undefined]);
      const filtered = await store.page({ peer: 'hermes', limit: 10, contextId: 'c1', state: 'TASK_STATE_COMPLETED', updatedSince: 1500 });
      expect([filtered.tasks.map((t) => t.id), filtered.total]).toEqual([[made[2].id], 1]);
      expect(await store.page({ peer: 'nobody', limit: 10 })).toEqual({ tasks: [], total: 0 });
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
      expect(await store.get(idle.id)).toBeDefined();
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
      await expect(store.insert(task())).rejects.toThrow('closed');
      store = await fixture.open(policy);
    });
  });
}
