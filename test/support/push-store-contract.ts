import type { PushStore } from '../../src/modules/a2a-channel/store/push-store.port';
import type { RetentionPolicy, TaskStore, TaskStoreHooks } from '../../src/modules/a2a-channel/store/task-store.port';
import { taskBuilder } from './task-store-contract';

/** A backend's task store and the push store over the same database, as the module pairs them. */
export interface PushBackend {
  tasks: TaskStore;
  push: PushStore;
}

/** Storage for one test: opening it again is another process (a restart, or a second replica when shared). */
export interface PushStoreFixture {
  open(retention: RetentionPolicy, hooks?: TaskStoreHooks): Promise<PushBackend>;
  /** Closes what is still open and removes the storage. */
  dispose(): Promise<void>;
}

const HOUR = 3_600_000;
const policy: RetentionPolicy = { terminalRetentionMs: 24 * HOUR, maxTerminalPerPeer: 10, idleExpiryMs: HOUR };
const LEASE = 60_000;
const hook = (id: string) => ({ id, url: `https://hooks.example/${id}`, wire: '1.0' as const });

/**
 * What every PushStore does (push-store.port.ts) with the task store beside it, run against each backend: SQLite in
 * `npm test` (src/modules/a2a-channel/store/sqlite/sqlite-push.store.spec.ts), PostgreSQL in the system tier
 * (test/system/pg-push-store.system-spec.ts).
 */
export function describePushStoreContract(name: string, createFixture: () => Promise<PushStoreFixture>): void {
  describe(`PushStore contract: ${name}`, () => {
    let fixture: PushStoreFixture;
    let backend: PushBackend;
    let queued: number;
    const task = taskBuilder();
    const open = (retention = policy) => fixture.open(retention, { onPushQueued: () => queued++ });
    // Claims far in the future: every delivery queued so far is due.
    const later = () => Date.now() + HOUR;
    const seqOf = async (taskId: string) => (await backend.push.taskSeq(taskId)) ?? -1;

    beforeEach(async () => {
      fixture = await createFixture();
      queued = 0;
      backend = await open();
    });
    afterEach(async () => {
      await backend.tasks.close();
      await fixture.dispose();
    });

    it('saves, replaces, lists and removes a task’s configs; full at the cap; no-task for a task without a row', async () => {
      const t = task();
      await backend.tasks.insert(t);
      expect(await backend.push.taskSeq('unknown')).toBeUndefined();
      const saved = await backend.push.save(
        t,
        { ...hook('c1'), token: 'tok', authentication: { scheme: 'Bearer', credentials: 'cred' } },
        2,
      );
      expect(saved).toMatchObject({
        id: 'c1',
        task_id: t.id,
        peer: 'hermes',
        token: 'tok',
        auth_scheme: 'Bearer',
        auth_credentials: 'cred',
      });
      // The same id replaces: not a second config, so the cap is not reached by it.
      expect(await backend.push.save(t, { ...hook('c1'), url: 'https://hooks.example/moved' }, 2)).toMatchObject({
        url: 'https://hooks.example/moved',
        token: null,
      });
      await backend.push.save(t, hook('c2'), 2);
      expect(await backend.push.save(t, hook('c3'), 2)).toBe('full');
      expect(await backend.push.save({ id: 'unknown', peer: 'hermes' }, hook('c1'), 2)).toBe('no-task');
      const seq = await seqOf(t.id);
      expect((await backend.push.list(seq)).map((c) => c.id)).toEqual(['c1', 'c2']);
      expect(await backend.push.get(seq, 'c2')).toMatchObject({ id: 'c2', url: 'https://hooks.example/c2' });
      expect(await backend.push.remove(seq, 'c2')).toBe(true);
      expect(await backend.push.remove(seq, 'c2')).toBe(false);
      expect(await backend.push.get(seq, 'c2')).toBeUndefined();
    });

    it('queues each event for the task’s configs in the event’s commit, and only for tasks that have some', async () => {
      const withPush = task();
      const without = task();
      await backend.tasks.insert(withPush);
      await backend.tasks.insert(without);
      await backend.push.save(withPush, hook('c1'), 10);
      await backend.push.save(withPush, hook('c2'), 10);
      await backend.tasks.transition(without.id, { state: 'TASK_STATE_COMPLETED' }, 2000);
      expect(queued).toBe(0);
      await backend.tasks.transition(withPush.id, { state: 'TASK_STATE_COMPLETED', artifact: { artifactId: 'a', text: 'done' } }, 2000);
      // Told once the commit is done, so a claim made on the signal finds the rows.
      expect(queued).toBe(1);
      expect(await backend.push.counts()).toEqual({ pending: 4, delivered: 0, failed: 0 });
      // Per config only its oldest pending event: event 1 for each, event 2 waits its turn.
      const due = await backend.push.claimDue(later(), 10, LEASE);
      expect(due.map((d) => [d.config_id, d.n, d.task_id, d.closes]).sort()).toEqual([
        ['c1', 1, withPush.id, 0],
        ['c2', 1, withPush.id, 0],
      ]);
      expect(JSON.parse(due[0].body)).toMatchObject({ artifactUpdate: { taskId: withPush.id } });
    });

    it('a claimed delivery is nobody else’s until it is settled or its lease is over; then the next event’s turn', async () => {
      const t = task();
      await backend.tasks.insert(t);
      await backend.push.save(t, hook('c1'), 10);
      await backend.tasks.transition(t.id, { state: 'TASK_STATE_COMPLETED', artifact: { artifactId: 'a', text: 'done' } }, 2000);
      const now = later();
      const [first] = await backend.push.claimDue(now, 10, LEASE);
      expect(first.n).toBe(1);
      // Held: neither it nor its config's next event can be claimed meanwhile.
      expect(await backend.push.claimDue(now + 1, 10, LEASE)).toEqual([]);
      expect(await backend.push.nextDue()).toBe(now + LEASE);
      // The claimer died: once the lease is over the delivery is claimed again.
      const [again] = await backend.push.claimDue(now + LEASE, 10, LEASE);
      expect([again.seq, again.n]).toEqual([first.seq, 1]);
      await backend.push.markDelivered(again.seq, now + LEASE + 1);
      const [second] = await backend.push.claimDue(now + LEASE + 2, 10, LEASE);
      expect([second.n, second.closes]).toEqual([2, 1]);
      expect(await backend.push.counts()).toEqual({ pending: 1, delivered: 1, failed: 0 });
    });

    it('renews only claims still held: a lapsed or settled one is not extended (it may be someone else’s)', async () => {
      const tasks = [task(), task(), task()];
      for (const t of tasks) {
        await backend.tasks.insert(t);
        await backend.push.save(t, hook('c1'), 10);
        await backend.tasks.transition(t.id, { state: 'TASK_STATE_COMPLETED', artifact: { artifactId: 'a', text: 'done' } }, 2000);
      }
      const now = later();
      const [a, b, c] = await backend.push.claimDue(now, 3, LEASE);
      await backend.push.markDelivered(c.seq, now + 1);
      // Halfway through the lease: a and b are held and get a whole lease from now; c is settled.
      expect((await backend.push.renewClaims([a.seq, b.seq, c.seq], now + LEASE / 2, LEASE)).sort()).toEqual([a.seq, b.seq].sort());
      // Where their first leases would have ended, only c's next event can be claimed.
      expect((await backend.push.claimDue(now + LEASE, 10, LEASE)).map((d) => [d.task_id, d.n])).toEqual([[c.task_id, 2]]);
      // Once a claim has run out, renewing it is refused: another claimer may hold it by now.
      const lapsed = now + LEASE / 2 + LEASE;
      expect(await backend.push.renewClaims([a.seq], lapsed, LEASE)).toEqual([]);
      const reclaimed = (await backend.push.claimDue(lapsed, 10, LEASE)).map((d) => d.seq);
      expect(reclaimed.sort()).toEqual([a.seq, b.seq].sort());
      expect(await backend.push.renewClaims([], now, LEASE)).toEqual([]);
    });

    it('a retry waits until its time, counts its attempts and keeps its error; a failure is final', async () => {
      const t = task();
      await backend.tasks.insert(t);
      await backend.push.save(t, hook('c1'), 10);
      await backend.tasks.transition(t.id, { state: 'TASK_STATE_COMPLETED' }, 2000);
      const now = later();
      const [d] = await backend.push.claimDue(now, 10, LEASE);
      await backend.push.markRetry(d.seq, now + 5000, 'the receiver answered HTTP 503');
      expect(await backend.push.nextDue()).toBe(now + 5000);
      expect(await backend.push.claimDue(now + 4999, 10, LEASE)).toEqual([]);
      const [retried] = await backend.push.claimDue(now + 5000, 10, LEASE);
      expect([retried.seq, retried.attempts, retried.last_error]).toEqual([d.seq, 1, 'the receiver answered HTTP 503']);
      await backend.push.markFailed(retried.seq, now + 6000, 'gave up');
      expect(await backend.push.nextDue()).toBeUndefined();
      const [listed] = await backend.push.listed('failed', 10);
      expect(listed).toMatchObject({
        seq: d.seq,
        state: 'failed',
        attempts: 2,
        last_error: 'gave up',
        done_at: now + 6000,
        config_id: 'c1',
      });
      expect(listed).not.toHaveProperty('body');
      expect(await backend.push.listed('pending', 10)).toEqual([]);
      // Finished deliveries older than the bound go; the task stays.
      expect(await backend.push.pruneDone(now + 6000)).toBe(1);
      expect(await backend.push.counts()).toEqual({ pending: 0, delivered: 0, failed: 0 });
      expect(await backend.tasks.get(t.id)).toBeDefined();
    });

    it('a removed config takes its pending deliveries with it; deliveries and configs go with their task', async () => {
      const t = task();
      await backend.tasks.insert(t);
      await backend.push.save(t, hook('c1'), 10);
      await backend.tasks.appendArtifact(t.id, { artifactId: 'a', text: 'part', append: false, lastChunk: false });
      expect(await backend.push.remove(await seqOf(t.id), 'c1')).toBe(true);
      expect(await backend.push.counts()).toEqual({ pending: 0, delivered: 0, failed: 0 });

      await backend.tasks.close();
      backend = await open({ ...policy, maxTerminalPerPeer: 1 });
      const first = task();
      await backend.tasks.insert(first);
      await backend.push.save(first, hook('c1'), 10);
      await backend.tasks.transition(first.id, { state: 'TASK_STATE_COMPLETED' }, 2000);
      // The cap is one finished task per peer: the next one pushes the first out, with its push rows.
      const second = task();
      await backend.tasks.insert(second);
      await backend.tasks.transition(second.id, { state: 'TASK_STATE_COMPLETED' }, 3000);
      expect(await backend.tasks.get(first.id)).toBeUndefined();
      expect(await backend.push.counts()).toEqual({ pending: 0, delivered: 0, failed: 0 });
      expect(await backend.push.claimDue(later(), 10, LEASE)).toEqual([]);
    });

    it('keeps configs and pending deliveries across a reopen (what a restarted process sends)', async () => {
      const t = task();
      await backend.tasks.insert(t);
      await backend.push.save(t, hook('c1'), 10);
      await backend.tasks.transition(t.id, { state: 'TASK_STATE_COMPLETED' }, 2000);
      await backend.tasks.close();
      backend = await open();
      expect((await backend.push.list(await seqOf(t.id))).map((c) => c.id)).toEqual(['c1']);
      expect((await backend.push.claimDue(later(), 10, LEASE)).map((d) => d.n)).toEqual([1]);
    });
  });
}
