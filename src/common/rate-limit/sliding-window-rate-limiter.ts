/** Milliseconds since the epoch; a port so windows can be tested without sleeping. */
export interface RateLimitClock {
  now(): number;
}

/**
 * The RateLimiter port: per-key sliding windows. The embedded implementation keeps the windows in memory;
 * a shared backend (for several gateway processes) can replace it without touching callers.
 */
export interface RateLimiter {
  /** Takes one slot when fewer than `limit` were taken for `key` within the last `windowMs`; false when limited. */
  tryTake(key: string, limit: number, windowMs: number): boolean;
  /** Drops the window of `key` (a peer that left the config). */
  forget(key: string): void;
  /** Keys that currently hold a window. */
  keys(): string[];
}

/** Timestamps of the slots taken, oldest first; `head` skips expired ones without shifting the array each time. */
interface Window {
  stamps: number[];
  head: number;
}

/**
 * Sliding-window log: a request is allowed when fewer than `limit` requests were allowed in the last
 * `windowMs`. Refused requests are not logged, so a peer that keeps hammering regains slots as its earlier
 * ones age out. Memory per key is bounded by `limit`.
 */
export class SlidingWindowRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly clock: RateLimitClock) {}

  tryTake(key: string, limit: number, windowMs: number): boolean {
    const now = this.clock.now();
    let window = this.windows.get(key);
    if (!window) {
      window = { stamps: [], head: 0 };
      this.windows.set(key, window);
    }
    const { stamps } = window;
    while (window.head < stamps.length && stamps[window.head] <= now - windowMs) window.head++;
    if (window.head > 64 && window.head * 2 > stamps.length) {
      stamps.splice(0, window.head);
      window.head = 0;
    }
    if (stamps.length - window.head >= limit) return false;
    stamps.push(now);
    return true;
  }

  forget(key: string): void {
    this.windows.delete(key);
  }

  keys(): string[] {
    return [...this.windows.keys()];
  }
}
