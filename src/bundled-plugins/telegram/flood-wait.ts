import type { Transformer } from 'grammy';
import type { ApiResponse } from 'grammy/types';

export interface FloodWaitOptions {
  /** Retries of one call before its failure is returned (default 3). */
  maxRetries?: number;
  /** A `retry_after` longer than this is not waited out: the 429 is returned (default 60 s). */
  maxWaitSeconds?: number;
  /** Called before each wait, for the log. */
  onRetry?: (method: string, reason: string, waitMs: number) => void;
}

/**
 * grammY API transformer: a 429 is waited out for its `retry_after` and the call made again; a 5xx or a network
 * failure is retried with a growing pause. After `maxRetries`, the last answer (or error) is what the caller sees.
 * (grammY's own auto-retry is a separate package; this is the part of it the channel needs.) `getUpdates` is left
 * to the poller, which has its own backoff and health reporting.
 */
export function floodWait(options: FloodWaitOptions = {}): Transformer {
  const maxRetries = options.maxRetries ?? 3;
  const maxWaitSeconds = options.maxWaitSeconds ?? 60;
  return async (prev, method, payload, signal) => {
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= maxRetries || method === 'getUpdates';
      let raw: Awaited<ReturnType<typeof prev>>;
      try {
        raw = await prev(method, payload, signal);
      } catch (error) {
        if (last || signal?.aborted) throw error;
        await pause(backoffMs(attempt), signal, () => options.onRetry?.(method, 'network failure', backoffMs(attempt)));
        continue;
      }
      const result = raw as ApiResponse<unknown>;
      // eslint-disable-next-line @typescript-eslint/no-unsafe-return -- grammY types the answer by method; it passes through as it came
      if (result.ok || last) return raw;
      const retryAfter = result.parameters?.retry_after;
      if (result.error_code === 429 && retryAfter !== undefined && retryAfter <= maxWaitSeconds) {
        await pause(retryAfter * 1000, signal, () => options.onRetry?.(method, `429 retry after ${retryAfter}s`, retryAfter * 1000));
      } else if (result.error_code >= 500) {
        await pause(backoffMs(attempt), signal, () => options.onRetry?.(method, `${result.error_code}`, backoffMs(attempt)));
      } else {
        // eslint-disable-next-line @typescript-eslint/no-unsafe-return -- as above
        return raw;
      }
    }
  };
}

function backoffMs(attempt: number): number {
  return 500 * 2 ** attempt;
}

function pause(
  ms: number,
  signal:
    | {
        aborted: boolean;
        addEventListener(type: 'abort', listener: () => void, options?: { once: boolean }): void;
        removeEventListener(type: 'abort', listener: () => void): void;
      }
    | undefined,
  announce: () => void,
): Promise<void> {
  announce();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
