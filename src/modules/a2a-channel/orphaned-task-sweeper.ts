import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ClusterService } from '../cluster';
import { A2A_MESSAGES, OWNER_SWEEP_INTERVAL_MS } from './a2a-limits';
import { A2A_CLOCK, Clock } from './clock';
import type { OwnedTasksSource } from './task-ownership.port';
import { TASK_STORE, type TaskStore } from './task-store.port';

/**
 * How long an owner must stay without its lease before its tasks fail: longer than a heartbeat interval (2 s), so a
 * Redis restarted empty, which every live replica fills again at its next heartbeat, fails nobody's runs.
 */
export const OWNER_MISSING_CONFIRM_MS = 4_000;

/**
 * Replicas sharing their tasks in PostgreSQL own the runs they start. Every few seconds each replica asks which
 * owners of unsettled tasks no longer hold their heartbeat lease in Redis (killed, or cut off for longer than
 * OWNER_LEASE_TTL_MS) and, once an owner has stayed without it for OWNER_MISSING_CONFIRM_MS, fails exactly that
 * owner's tasks, once (the store's per-owner lock and the terminal check). A replica that cannot ask Redis sweeps
 * nobody. Without gateway.cluster, or with tasks in SQLite, nothing runs here: a process then fails its own state
 * dir's leftovers at its next start (A2aTaskService).
 */
@Injectable()
export class OrphanedTaskSweeper implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('a2a');
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<number>;
  /** Owners found without a lease, and since when: one must stay missing across checks before its tasks fail. */
  private readonly missingSince = new Map<string, number>();
  /** One warning per outage (Redis or PostgreSQL), not one every few seconds. */
  private failing = false;

  constructor(
    @Inject(TASK_STORE) private readonly store: TaskStore & Partial<OwnedTasksSource>,
    @Inject(A2A_CLOCK) private readonly clock: Clock,
    // Typed to what it uses, so the sweep's decisions can be checked over a stand-in cluster.
    @Inject(ClusterService)
    private readonly cluster: Pick<ClusterService, 'mode' | 'replicaId' | 'liveOwners' | 'countOwnedTasksWith'>,
  ) {}

  onModuleInit(): void {
    this.cluster.countOwnedTasksWith(async () => {
      const counts = await this.store.ownedTasks?.()?.unsettledByOwner();
      return counts && new Map(counts.map((c) => [c.owner, c.tasks]));
    });
    if (this.cluster.mode !== 'cluster') return;
    this.timer = setInterval(() => void this.sweep(), OWNER_SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  /** One pass (also called by tests): how many tasks of dead owners it failed. Overlapping passes share one. */
  sweep(): Promise<number> {
    this.sweeping ??= this.sweepOnce()
      .then((failed) => {
        this.failing = false;
        return failed;
      })
      .catch((err: Error) => {
        if (!this.failing) this.logger.warn(`the sweep for stopped replicas' A2A tasks could not run: ${err.message}`);
        this.failing = true;
        return 0;
      })
      .finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async sweepOnce(): Promise<number> {
    const owned = this.store.ownedTasks?.();
    if (!owned || this.cluster.mode !== 'cluster') return 0;
    const owners = (await owned.unsettledByOwner()).filter((o) => o.leased && o.owner !== this.cluster.replicaId).map((o) => o.owner);
    const live = owners.length ? await this.cluster.liveOwners(owners) : new Set<string>();
    const now = this.clock.now();
    const missing = owners.filter((o) => !live.has(o));
    for (const owner of this.missingSince.keys()) if (!missing.includes(owner)) this.missingSince.delete(owner);
    for (const owner of missing) if (!this.missingSince.has(owner)) this.missingSince.set(owner, now);
    let failed = 0;
    for (const owner of missing.filter((o) => now - this.missingSince.get(o)! >= OWNER_MISSING_CONFIRM_MS)) {
      this.missingSince.delete(owner);
      const tasks = await owned.failOwned(owner, A2A_MESSAGES.replicaStopped, this.clock.now());
      if (tasks.length) this.logger.warn(`replica ${owner} stopped (its lease expired); ${tasks.length} A2A task(s) it ran marked FAILED`);
      failed += tasks.length;
    }
    return failed;
  }
}
