/**
 * Delays between GetTask polls: `initialMs`, doubling up to `maxMs`, then `maxMs` forever (the caller stops
 * at its deadline). Fast first answers for quick agents, and a slow agent costs a poll every few seconds.
 */
export function* backoffDelays(initialMs: number, maxMs: number): Generator<number, never> {
  let delay = Math.max(1, initialMs);
  for (;;) {
    yield Math.min(delay, maxMs);
    delay = Math.min(delay * 2, maxMs);
  }
}

/** Waits `ms`; resolves false at once when `signal` aborts (true when the time passed). */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(value);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
