import { OWNER_MISSING_CONFIRM_MS, type ClusterService, type OwnedTaskCounter } from '../../cluster';
import { A2A_MESSAGES } from '../protocol/limits-and-messages';
import { OrphanedTaskSweeper } from './orphaned-task-sweeper';
import type { A2aTask } from '../model/task';
import type { OwnedTasks, OwnerTaskCount } from '../store/task-ownership.port';
import type { TaskStore } from '../store/task-store.port';

/** The sweep's decisions over a stand-in shared store and cluster (the real ones: test/system/cluster-failover). */
function setup(owners: OwnerTaskCount[], live: string[] | Error, mode: 'single' | 'cluster' = 'cluster') {
  const clock = { at: 1_000, now: () => clock.at };
  const failedOwners: Array<{ owner: string; reason: string; at: number }> = [];
  const owned: OwnedTasks = {
    unsettledByOwner: async () => owners,
    failOwned: async (owner, reason, at) => {
      failedOwners.push({ owner, reason, at });
      const count = owners.find((o) => o.owner === owner)?.tasks ?? 0;
      return Array.from({ length: count }, (_, i) => ({ id: `${owner}-${i}` }) as A2aTask);
    },
  };
  let counter: OwnedTaskCounter | undefined;
  const cluster = {
    mode,
    replicaId: 'self',
    liveOwners: async (ids: readonly string[]) => {
      if (live instanceof Error) throw live;
      return new Set(ids.filter((id) => live.includes(id)));
    },
    countOwnedTasksWith: (c: OwnedTaskCounter) => (counter = c),
  } satisfies Pick<ClusterService, 'mode' | 'replicaId' | 'liveOwners' | 'countOwnedTasksWith'>;
  const store = { ownedTasks: () => owned } as unknown as TaskStore;
  const sweeper = new OrphanedTaskSweeper(store, clock, cluster);
  sweeper.onModuleInit();
  return { sweeper, clock, failedOwners, live, counter: () => counter, stop: () => sweeper.onModuleDestroy() };
}

describe('OrphanedTaskSweeper', () => {
  it("fails the tasks of leased owners whose lease is gone, never its own, a live one's or an unleased one's", async () => {
    const { sweeper, clock, failedOwners, stop } = setup(
      [
        { owner: 'self', leased: true, tasks: 2 },
        { owner: 'dead', leased: true, tasks: 3 },
        { owner: 'alive', leased: true, tasks: 1 },
        { owner: 'single-process', leased: false, tasks: 4 },
      ],
      ['alive'],
    );
    // Found missing once: not yet (a Redis restarted empty looks like this until the next heartbeats).
    expect(await sweeper.sweep()).toBe(0);
    clock.at += OWNER_MISSING_CONFIRM_MS;
    expect(await sweeper.sweep()).toBe(3);
    expect(failedOwners).toEqual([{ owner: 'dead', reason: A2A_MESSAGES.replicaStopped, at: clock.at }]);
    await stop();
  });

  it('forgets an owner that was missing once and holds its lease again (a Redis restarted empty)', async () => {
    const { sweeper, clock, failedOwners, live, stop } = setup([{ owner: 'back', leased: true, tasks: 2 }], []);
    expect(await sweeper.sweep()).toBe(0);
    (live as string[]).push('back');
    clock.at += OWNER_MISSING_CONFIRM_MS;
    expect(await sweeper.sweep()).toBe(0);
    (live as string[]).pop();
    clock.at += 1;
    expect(await sweeper.sweep()).toBe(0);
    expect(failedOwners).toEqual([]);
    await stop();
  });

  it('sweeps nobody while Redis cannot say who is alive', async () => {
    const { sweeper, clock, failedOwners, stop } = setup([{ owner: 'dead', leased: true, tasks: 3 }], new Error('Redis is down'));
    expect(await sweeper.sweep()).toBe(0);
    clock.at += OWNER_MISSING_CONFIRM_MS;
    expect(await sweeper.sweep()).toBe(0);
    expect(failedOwners).toEqual([]);
    await stop();
  });

  it('sweeps nothing in a single process, and still counts the tasks each owner runs for GET /admin/cluster', async () => {
    const { sweeper, failedOwners, counter, stop } = setup([{ owner: 'dead', leased: true, tasks: 3 }], [], 'single');
    expect(await sweeper.sweep()).toBe(0);
    expect(failedOwners).toEqual([]);
    expect(await counter()?.()).toEqual(new Map([['dead', 3]]));
    await stop();
  });
});
