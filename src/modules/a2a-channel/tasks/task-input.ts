/** How a run's wait for the peer's answer ended. */
export type InputOutcome = { answer: string } | { timedOut: true } | { aborted: true };

/** request_input calls one task may make: with the tool round limit it bounds the task's history. */
export const MAX_INPUT_REQUESTS = 8;

interface Pending {
  settle(outcome: InputOutcome): void;
}

/**
 * The runs waiting for a peer's answer, one per task at most (a run asks one question at a time). In memory only:
 * after a restart there is no run left to answer (docs/decisions.md#a2a-channel).
 */
export class TaskInputRequests {
  private readonly pending = new Map<string, Pending>();
  private readonly asked = new Map<string, number>();

  /** Counts one more request for the task; false once it has made MAX_INPUT_REQUESTS. */
  allowAnother(taskId: string): boolean {
    const count = this.asked.get(taskId) ?? 0;
    if (count >= MAX_INPUT_REQUESTS) return false;
    this.asked.set(taskId, count + 1);
    return true;
  }

  /** Waits for `answer`, `timeoutMs`, or the run's abort, whichever comes first. */
  wait(taskId: string, timeoutMs: number, signal: AbortSignal): Promise<InputOutcome> {
    if (this.pending.has(taskId)) throw new Error(`task ${taskId} already waits for input`);
    if (signal.aborted) return Promise.resolve({ aborted: true });
    return new Promise((resolve) => {
      const settle = (outcome: InputOutcome) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        if (this.pending.get(taskId) === entry) this.pending.delete(taskId);
        resolve(outcome);
      };
      const entry: Pending = { settle };
      const onAbort = () => settle({ aborted: true });
      const timer = setTimeout(() => settle({ timedOut: true }), timeoutMs);
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(taskId, entry);
    });
  }

  /**
   * Takes the task's pending request for one answer: the first caller gets a function that delivers it, a second
   * (or one for a task that is not waiting) gets undefined. Taken at once, so two answers can never both land.
   */
  claim(taskId: string): ((answer: string) => void) | undefined {
    const entry = this.pending.get(taskId);
    if (!entry) return undefined;
    this.pending.delete(taskId);
    return (answer) => entry.settle({ answer });
  }

  /** Drops what is kept for a task whose run is over. */
  forget(taskId: string): void {
    this.asked.delete(taskId);
  }
}
