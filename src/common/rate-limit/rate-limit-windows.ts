import { RateLimiter } from './sliding-window-rate-limiter';

/**
 * The port of a rate limit that may live outside this process: per-key sliding windows whose slots are taken
 * synchronously when they are in memory and asynchronously when they are not. The single-process gateway keeps
 * them in memory (InProcessRateLimitWindows); a cluster keeps them in Redis so every replica counts against one
 * window (src/modules/cluster). Chosen once at start.
 */
export interface RateLimitWindows {
  /**
   * Takes up to `count` slots for `key`, in order, while fewer than `limit` were taken within the last `windowMs`.
   * Answers how many were granted: the first that many of the `count` requests are admitted, the rest are
   * limited. A number at once when the windows are in this process (every request asks: no promise for it), a
   * promise when they are shared. Never rejects.
   */
  take(key: string, count: number, limit: number, windowMs: number): number | Promise<number>;
  /** Drops the window of `key` (a peer that left the config). */
  forget(key: string): void;
  /** Keys this process holds or has used a window for. */
  keys(): string[];
}

/** The in-memory windows of one process, over the sliding-window log of `sliding-window-rate-limiter.ts`. */
export class InProcessRateLimitWindows implements RateLimitWindows {
  constructor(private readonly limiter: RateLimiter) {}

  take(key: string, count: number, limit: number, windowMs: number): number {
    return this.takeNow(key, count, limit, windowMs);
  }

  /** The same, synchronously: what a shared implementation falls back to while its store is unreachable. */
  takeNow(key: string, count: number, limit: number, windowMs: number): number {
    let granted = 0;
    while (granted < count && this.limiter.tryTake(key, limit, windowMs)) granted++;
    return granted;
  }

  forget(key: string): void {
    this.limiter.forget(key);
  }

  keys(): string[] {
    return this.limiter.keys();
  }
}
