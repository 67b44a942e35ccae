import type { HeldLease, LaneLeases } from '../../common/coordination/lane-leases';
import type { LaneShare } from './lane-share';

/**
 * Per-session FIFO lanes (docs/runtime.md#lanes). Runs in one session are serialized on its `main` lane. Agent-to-agent
 * steps (ping-pong replies, announce) run on the session's separate `nested` lane, so A waiting on B while B
 * answers A can never deadlock: the nested step does not queue behind the run that is waiting for it.
 * With gateway.cluster the run at the head of a lane also holds the lane's lease in Redis while it runs, so the
 * replicas serialize it together; a single process takes no lease.
 */
export type LaneName = 'main' | 'nested';

export interface LaneState {
  running: number;
  queued: number;
}

interface Lane {
  tail: Promise<void>;
  running: number;
  queued: number;
}

/** What a task learns of the cross-replica lease it runs under: its fencing token, and when it was lost. */
export type LaneFence = Pick<HeldLease, 'token' | 'lost'>;

export class SessionLanes {
  private readonly lanes = new Map<string, Lane>();

  /** `leases`: asked per run (the cluster joins after the runner is built); undefined = this process alone. */
  constructor(private readonly leases: () => LaneLeases | undefined = () => undefined) {}

  /**
   * Queues `task` behind everything already on that session's lane (and, in a cluster, until the lane's lease is
   * ours); resolves with its result. `signal` gives up a wait for the lease. `share`: the lane is known only to this
   * process until shared, and the run takes its lease only then (lane-share.ts).
   */
  run<T>(sessionKey: string, lane: LaneName, task: (fence?: LaneFence) => Promise<T>, signal?: AbortSignal, share?: LaneShare): Promise<T> {
    const id = `${lane}\u0000${sessionKey}`;
    const state = this.lanes.get(id) ?? { tail: Promise.resolve(), running: 0, queued: 0 };
    this.lanes.set(id, state);
    state.queued++;
    const result = state.tail.then(() => {
      const leases = this.leases();
      if (!leases) return alone(state, task);
      const name = `${lane}:${sessionKey}`;
      return share && !share.shared ? this.unshared(leases, name, state, task, share) : this.leased(leases, name, state, task, signal);
    });
    // Forget idle lanes so a long-lived gateway does not keep one entry per session ever seen.
    const next = () => {
      if (state.running === 0 && state.queued === 0 && this.lanes.get(id) === state) this.lanes.delete(id);
    };
    state.tail = result.then(next, next);
    return result;
  }

  /** The head of a lane in a cluster: waits for the lane's lease, runs, and gives the lease back. */
  private async leased<T>(
    leases: LaneLeases,
    name: string,
    state: Lane,
    task: (fence?: LaneFence) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    let lease: HeldLease | undefined;
    try {
      lease = await leases.acquire(name, signal);
    } finally {
      state.queued--;
    }
    state.running++;
    try {
      return await task(lease);
    } finally {
      state.running--;
      // Not awaited: the run's answer does not wait a Redis round trip, and this replica's next acquire of the
      // lane is answered after the release anyway (HeldLease.release).
      void lease.release();
    }
  }

  /**
   * The head of a lane no other replica knows of yet: runs at once without a lease, and takes it when `share` is
   * shared while the run goes on (a lease granted after the run is over is given back at once).
   */
  private async unshared<T>(
    leases: LaneLeases,
    name: string,
    state: Lane,
    task: (fence?: LaneFence) => Promise<T>,
    share: LaneShare,
  ): Promise<T> {
    state.queued--;
    state.running++;
    const lost = new AbortController();
    let lease: HeldLease | undefined;
    let over = false;
    share.attach(async () => {
      const held = await leases.acquire(name);
      if (over) return void held.release();
      lease = held;
      held.lost.addEventListener('abort', () => lost.abort(held.lost.reason), { once: true });
    });
    try {
      return await task({
        get token() {
          return lease?.token ?? 0;
        },
        lost: lost.signal,
      });
    } finally {
      over = true;
      share.detach();
      state.running--;
      void lease?.release();
    }
  }

  /** Running and queued counts of a session over both lanes. */
  state(sessionKey: string): LaneState {
    const out: LaneState = { running: 0, queued: 0 };
    for (const lane of ['main', 'nested'] as const) {
      const s = this.lanes.get(`${lane}\u0000${sessionKey}`);
      if (s) {
        out.running += s.running;
        out.queued += s.queued;
      }
    }
    return out;
  }
}

/** The head of a lane in a single process: no lease, and no promise beyond the task's own and one reaction. */
function alone<T>(state: Lane, task: () => Promise<T>): Promise<T> {
  state.queued--;
  state.running++;
  const ended = () => state.running--;
  let run: Promise<T>;
  try {
    run = task();
  } catch (err) {
    ended();
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
  return run.then(
    (value) => {
      ended();
      return value;
    },
    (err: unknown) => {
      ended();
      throw err;
    },
  );
}
