/**
 * A run's lane known only to this process until its caller says otherwise (docs/decisions.md#cluster: a new
 * context's lane). A lane lease keeps two replicas from running one session at once, and a replica can start a run
 * of a session only when it knows the session's key; a conversation whose id this process has just made up for the
 * run it starts is known nowhere else, so that run takes no lease until the id is about to leave the process (its
 * task row written, an answer sent) — `share()`, awaited before that. A run never shared takes none at all.
 *
 * `SessionLanes` binds it to the run (`attach`); a share before the run starts only means it leases as any run
 * does, and after it is over there is nothing to lease.
 */
export class LaneShare {
  private state: 'private' | 'shared' = 'private';
  private running?: () => Promise<void>;

  /**
   * Resolves once no other replica can start a run on this lane while this one goes on: at once when the run has
   * not started yet (it will take the lease as usual) or is over; else once the lease is held.
   */
  share(): Promise<void> {
    this.state = 'shared';
    return this.running ? this.running() : Promise.resolve();
  }

  /** Whether the run must take its lease when it starts. */
  get shared(): boolean {
    return this.state === 'shared';
  }

  /** The lanes: the run started without a lease, and `lease` takes it (once, whoever asks). */
  attach(lease: () => Promise<void>): void {
    let taken: Promise<void> | undefined;
    this.running = () => (taken ??= lease());
  }

  /** The lanes: the run is over, so nothing is left to lease. */
  detach(): void {
    this.running = undefined;
  }
}
