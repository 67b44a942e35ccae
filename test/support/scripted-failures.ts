/** One failure a test scripted: the next `count` calls it matches fail with `detail`. */
interface Script<C, T> {
  key?: string;
  matches(call: C): boolean;
  count: number;
  detail: T;
}

/**
 * Failures a test scripts on a platform fake ("the next 2 sends answer 429, retry after 1 s"): each call asks
 * `take`, which counts down the first script that matches it with failures left. A script given a `key` replaces
 * an earlier one of that key (a method scripted again starts over); without one, scripts add up in order.
 */
export class ScriptedFailures<C, T> {
  private readonly scripts: Script<C, T>[] = [];

  add(count: number, detail: T, matches: (call: C) => boolean, key?: string): void {
    if (key !== undefined) {
      const earlier = this.scripts.findIndex((s) => s.key === key);
      if (earlier >= 0) this.scripts.splice(earlier, 1);
    }
    this.scripts.push({ ...(key !== undefined ? { key } : {}), matches, count, detail });
  }

  /** The failure due for this call, if any (and counts it). */
  take(call: C): T | undefined {
    const script = this.scripts.find((s) => s.count > 0 && s.matches(call));
    if (!script) return undefined;
    script.count--;
    return script.detail;
  }
}
