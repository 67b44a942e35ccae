/**
 * The port of a lease on a session lane held across processes (docs/runtime.md#lanes). A single process needs
 * none: its in-memory FIFO already serializes a lane. With gateway.cluster the cluster module holds one in Redis,
 * so two replicas never run the same lane at once.
 */
export interface HeldLease {
  /** Strictly increasing across every lease granted: a later holder always has a larger token. */
  readonly token: number;
  /** Aborted when the lease is gone (taken over after expiry): the holder must stop what it runs under it. */
  readonly lost: AbortSignal;
  /**
   * Gives it back (only if still ours); never rejects. An `acquire` of this process made after it is answered after
   * it (the cluster sends them in order, releases first), so a caller need not wait for it before the lane's next
   * run asks again.
   */
  release(): Promise<void>;
}

export interface LaneLeases {
  /** Waits until the lane `laneId` is free and holds it; `signal` gives up the wait (rejects with its reason). */
  acquire(laneId: string, signal?: AbortSignal): Promise<HeldLease>;
}
