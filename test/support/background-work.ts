/**
 * What a fake does on its own besides answering requests (posting webhooks, redelivering after a timeout): kept, so
 * that closing the fake stops the timers and waits for the posts in flight instead of leaving them to a later test.
 */
export class BackgroundWork {
  private readonly running = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private isStopped = false;

  get stopped(): boolean {
    return this.isStopped;
  }

  /** Starts `work` now; it is kept until it ends. */
  run(work: () => Promise<void>): void {
    const running = work();
    this.running.add(running);
    void running.finally(() => this.running.delete(running));
  }

  /** Calls `task` after `ms`, unless the work is stopped first. */
  later(task: () => void, ms: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      task();
    }, ms);
    this.timers.add(timer);
  }

  /** No timer fires from now on. */
  stop(): void {
    this.isStopped = true;
    for (const timer of this.timers) clearTimeout(timer);
  }

  /** Resolves once the work in flight has ended. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}
