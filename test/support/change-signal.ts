/** Listeners told of every change of a fake's state, so that tests wait on changes instead of polling. */
export class ChangeSignal {
  private readonly listeners = new Set<() => void>();

  /** Adds a listener; the returned function removes it. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/**
 * Resolves with `predicate`'s value once it is neither undefined nor false (checked now and at each change
 * `onChange` reports), or rejects after `timeoutMs` with the error `timedOut` (which says what was awaited).
 */
export function waitForChange<T>(
  onChange: (listener: () => void) => () => void,
  predicate: () => T | undefined | false,
  timeoutMs: number,
  timedOut: string,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const value = predicate();
      if (value === undefined || value === false) return;
      done();
      resolve(value);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(timedOut));
    }, timeoutMs);
    const stop = onChange(check);
    const done = (): void => {
      clearTimeout(timer);
      stop();
    };
    check();
  });
}
