/** What a tool hands to `ToolContext.onAbort`: stops work it started elsewhere; the promise settles once that work has stopped. */
export type StopWork = () => Promise<unknown> | void;

/**
 * The work a run started outside itself (a run in another session, a task at a remote peer), tied to the run's
 * AbortSignal: when the run is aborted every registered stop is called — at once for one registered after the
 * abort — and `settled()` waits until all of them report that their work has stopped. The runner awaits that
 * before it records the run as aborted, so "aborted" means nothing the run started is still going on.
 * A run that ends any other way drops its stops unused: the work it started goes on as designed.
 */
export class AbortCascade {
  private readonly stopping: Array<Promise<unknown>> = [];

  constructor(
    private readonly signal: AbortSignal,
    private readonly onError: (err: Error) => void,
  ) {}

  add(stop: StopWork): void {
    const run = () => {
      try {
        this.stopping.push(Promise.resolve(stop()).catch((err: Error) => this.onError(err)));
      } catch (err) {
        this.onError(err as Error);
      }
    };
    if (this.signal.aborted) run();
    else this.signal.addEventListener('abort', run, { once: true });
  }

  /** Resolves once every stop called so far (and any that one of them added) has settled. */
  async settled(): Promise<void> {
    while (this.stopping.length) await Promise.allSettled(this.stopping.splice(0));
  }
}
