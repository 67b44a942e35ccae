/**
 * Per-session FIFO lanes (docs/runtime.md#lanes). Runs in one session are serialized on its `main` lane. Agent-to-agent
 * steps (ping-pong replies, announce) run on the session's separate `nested` lane, so A waiting on B while B
 * answers A can never deadlock: the nested step does not queue behind the run that is waiting for it.
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

export class SessionLanes {
  private readonly lanes = new Map<string, Lane>();

  /** Queues `task` behind everything already on that session's lane; resolves with its result. */
  run<T>(sessionKey: string, lane: LaneName, task: () => Promise<T>): Promise<T> {
    const id = `${lane}\u0000${sessionKey}`;
    const state = this.lanes.get(id) ?? { tail: Promise.resolve(), running: 0, queued: 0 };
    this.lanes.set(id, state);
    state.queued++;
    const result = state.tail.then(async () => {
      state.queued--;
      state.running++;
      try {
        return await task();
      } finally {
        state.running--;
      }
    });
    state.tail = result.then(
      () => undefined,
      () => undefined,
    );
    // Forget idle lanes so a long-lived gateway does not keep one entry per session ever seen.
    void state.tail.then(() => {
      if (state.running === 0 && state.queued === 0 && this.lanes.get(id) === state) this.lanes.delete(id);
    });
    return result;
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
