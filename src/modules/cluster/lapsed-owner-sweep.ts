import type { ClusterService } from './cluster.service';

/**
 * How long an owner must stay without its lease before its work is settled by another replica: longer than a
 * heartbeat interval (2 s), so a Redis restarted empty, which every live replica fills again at its next heartbeat,
 * settles nobody's work.
 */
export const OWNER_MISSING_CONFIRM_MS = 4_000;
/** How often each replica looks for owners whose ownership lease expired. */
export const OWNER_SWEEP_INTERVAL_MS = 3_000;

/** Work of a shared store owned by replicas (their replica ids), as a sweep needs it. */
export interface LeasedWork {
  /** The owners of unfinished work that keep a heartbeat lease (an owner without one is never swept by others). */
  leasedOwners(): Promise<string[]>;
  /** Settles the unfinished work of `owner`, found gone; how much it settled. Safe when two replicas do it at once. */
  release(owner: string): Promise<number>;
}

export interface LapsedOwnerSweepOptions {
  /** The work to sweep; undefined while there is none to share (a store of this process alone, or not chosen yet). */
  work: () => LeasedWork | undefined;
  now: () => number;
  /** An owner's work was settled. */
  released(owner: string, count: number): void;
  /** A pass could not run (Redis or the store failed): told once per outage. */
  failed(err: Error): void;
}

/**
 * The one way replicas settle the work of a replica that is gone (docs/decisions.md#state-on-postgresql): every
 * OWNER_SWEEP_INTERVAL_MS each replica asks which owners of unfinished work no longer hold their ownership lease in
 * Redis (killed, or cut off for longer than its TTL) and, once an owner has stayed without it across checks for
 * OWNER_MISSING_CONFIRM_MS, releases exactly that owner's work. A replica that cannot ask Redis sweeps nobody, and
 * it never sweeps itself. Without gateway.cluster nothing runs. Used for A2A tasks and sessions_send exchanges.
 */
export class LapsedOwnerSweep {
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<number>;
  /** Owners found without a lease, and since when. */
  private readonly missingSince = new Map<string, number>();
  private failing = false;

  constructor(
    private readonly cluster: Pick<ClusterService, 'mode' | 'replicaId' | 'liveOwners'>,
    private readonly options: LapsedOwnerSweepOptions,
  ) {}

  /** Starts the timer in cluster mode (call once the cluster has been joined). */
  start(): void {
    if (this.cluster.mode !== 'cluster' || this.timer) return;
    this.timer = setInterval(() => void this.sweep(), OWNER_SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.sweeping;
  }

  /** One pass: how much work of gone owners it settled. Overlapping passes share one. */
  sweep(): Promise<number> {
    this.sweeping ??= this.sweepOnce()
      .then((released) => {
        this.failing = false;
        return released;
      })
      .catch((err: Error) => {
        if (!this.failing) this.options.failed(err);
        this.failing = true;
        return 0;
      })
      .finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async sweepOnce(): Promise<number> {
    const work = this.options.work();
    if (!work || this.cluster.mode !== 'cluster') return 0;
    const owners = (await work.leasedOwners()).filter((o) => o !== this.cluster.replicaId);
    const live = owners.length ? await this.cluster.liveOwners(owners) : new Set<string>();
    const now = this.options.now();
    const missing = owners.filter((o) => !live.has(o));
    for (const owner of this.missingSince.keys()) if (!missing.includes(owner)) this.missingSince.delete(owner);
    for (const owner of missing) if (!this.missingSince.has(owner)) this.missingSince.set(owner, now);
    let released = 0;
    for (const owner of missing.filter((o) => now - this.missingSince.get(o)! >= OWNER_MISSING_CONFIRM_MS)) {
      this.missingSince.delete(owner);
      const count = await work.release(owner);
      if (count) this.options.released(owner, count);
      released += count;
    }
    return released;
  }
}
