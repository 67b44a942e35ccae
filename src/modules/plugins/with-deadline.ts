/** `work`, or a rejection naming `what` once `ms` have passed without it settling (the work itself is not stopped). */
export function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * `work`, or a rejection with the signal's reason once `signal` aborts: plugin code that ignores the signal it was
 * given cannot keep a run (and its session's lane, and the gateway's shutdown) waiting for it. The work itself is
 * not stopped; what it settles to later is dropped.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(reasonOf(signal));
  }
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(reasonOf(signal));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  work.catch(() => undefined);
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', onAbort!));
}

function reasonOf(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error(typeof reason === 'string' ? reason : 'aborted');
}
