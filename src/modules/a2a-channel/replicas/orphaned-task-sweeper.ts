import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ClusterService, LapsedOwnerSweep } from '../../cluster';
import { A2A_MESSAGES } from '../protocol/limits-and-messages';
import { A2A_CLOCK, Clock } from '../model/clock';
import type { OwnedTasksSource } from '../store/task-ownership.port';
import { TASK_STORE, type TaskStore } from '../store/task-store.port';

/**
 * Replicas sharing their tasks in PostgreSQL own the runs they start. The cluster's LapsedOwnerSweep finds owners of
 * unsettled tasks that lost their heartbeat lease (confirmed across checks) and this fails exactly that owner's tasks,
 * once (the store's per-owner lock and the terminal check). Without gateway.cluster, or with tasks in SQLite, nothing
 * runs here: a process then fails its own state dir's leftovers at its next start (A2aTaskService).
 */
@Injectable()
export class OrphanedTaskSweeper implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('a2a');
  private readonly lapsed: LapsedOwnerSweep;

  constructor(
    @Inject(TASK_STORE) private readonly store: TaskStore & Partial<OwnedTasksSource>,
    @Inject(A2A_CLOCK) clock: Clock,
    // Typed to what it uses, so the sweep's decisions can be checked over a stand-in cluster.
    @Inject(ClusterService)
    private readonly cluster: Pick<ClusterService, 'mode' | 'replicaId' | 'liveOwners' | 'countOwnedTasksWith'>,
  ) {
    this.lapsed = new LapsedOwnerSweep(cluster, {
      now: () => clock.now(),
      work: () => {
        const owned = this.store.ownedTasks?.();
        return (
          owned && {
            leasedOwners: async () => (await owned.unsettledByOwner()).filter((o) => o.leased).map((o) => o.owner),
            release: async (owner) => (await owned.failOwned(owner, A2A_MESSAGES.replicaStopped, clock.now())).length,
          }
        );
      },
      released: (owner, count) =>
        this.logger.warn(`replica ${owner} stopped (its lease expired); ${count} A2A task(s) it ran marked FAILED`),
      failed: (err) => this.logger.warn(`the sweep for stopped replicas' A2A tasks could not run: ${err.message}`),
    });
  }

  onModuleInit(): void {
    this.cluster.countOwnedTasksWith(async () => {
      const counts = await this.store.ownedTasks?.()?.unsettledByOwner();
      return counts && new Map(counts.map((c) => [c.owner, c.tasks]));
    });
    this.lapsed.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.lapsed.stop();
  }

  /** One pass (also called by tests): how many tasks of dead owners it failed. Overlapping passes share one. */
  sweep(): Promise<number> {
    return this.lapsed.sweep();
  }
}
