/** What the throttle says about one occurrence: write a line (with how many were held back before it), or not. */
export type ThrottleVerdict = { log: true; suppressed: number } | { log: false };

export interface LogThrottleOptions {
  /** One line per key per window. */
  windowMs: number;
  /** Keys remembered at once; beyond them every new key shares one overflow key, so lines stay bounded too. */
  maxKeys: number;
  now?: () => number;
}

/** The key that new keys share while `maxKeys` are being remembered (an address-rotating flood is one line a window). */
export const OVERFLOW_KEY = '\u0000overflow';

/**
 * Decides which occurrences of a repeated event get a log line: the first of a key, then at most one per window,
 * which says how many were held back since the last line. Memory and lines are bounded whatever callers send:
 * at most `maxKeys` keys plus the overflow key, each at most one line per window.
 */
export class LogThrottle {
  private readonly entries = new Map<string, { lastLoggedAt: number; suppressed: number }>();
  private readonly now: () => number;

  constructor(private readonly options: LogThrottleOptions) {
    this.now = options.now ?? Date.now;
  }

  /** `key` is what a reader tells apart (an edge and an address); returns whether to write this occurrence. */
  take(key: string): ThrottleVerdict {
    const now = this.now();
    const slot = this.slotFor(key, now);
    const entry = this.entries.get(slot);
    if (!entry) {
      this.entries.set(slot, { lastLoggedAt: now, suppressed: 0 });
      return { log: true, suppressed: 0 };
    }
    if (now - entry.lastLoggedAt < this.options.windowMs) {
      entry.suppressed++;
      return { log: false };
    }
    const suppressed = entry.suppressed;
    entry.lastLoggedAt = now;
    entry.suppressed = 0;
    return { log: true, suppressed };
  }

  /** The key itself, or the overflow key when the map is full of keys still inside their window. */
  private slotFor(key: string, now: number): string {
    if (this.entries.has(key) || this.entries.size < this.options.maxKeys) return key;
    // Forget keys whose window has passed and that held nothing back: a later line for them has nothing to report.
    for (const [k, e] of this.entries) {
      if (k !== OVERFLOW_KEY && e.suppressed === 0 && now - e.lastLoggedAt >= this.options.windowMs) this.entries.delete(k);
    }
    return this.entries.size < this.options.maxKeys ? key : OVERFLOW_KEY;
  }
}
