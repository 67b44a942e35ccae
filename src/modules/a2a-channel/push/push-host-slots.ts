/**
 * At most `perHost` pieces of work at a time per host, the rest waiting in arrival order (docs/a2a-push.md#delivery):
 * the push deliverer runs one attempt — one connection — per config at once, and many configs may name one host. A
 * host that accepts connections and never answers would otherwise hold a socket per config for the whole timeout;
 * with slots it holds `perHost`, and the other hosts' work never waits behind it.
 */
export class HostSlots<T> {
  private readonly running = new Map<string, number>();
  private readonly queued = new Map<string, T[]>();

  constructor(
    private readonly perHost: number,
    /** Starts one piece of work; it calls `done` exactly once, when it has finished. */
    private readonly start: (item: T, done: () => void) => void,
  ) {}

  /** Starts `item` now if `host` has a free slot, else queues it behind the host's earlier ones. */
  add(host: string, item: T): void {
    if ((this.running.get(host) ?? 0) < this.perHost) return this.run(host, item);
    const queue = this.queued.get(host);
    if (queue) queue.push(item);
    else this.queued.set(host, [item]);
  }

  /** Everything waiting for a slot, all hosts. */
  waiting(): T[] {
    return [...this.queued.values()].flat();
  }

  /** Takes the waiting items `drop` picks out of their queues (they will not start) and returns them. */
  removeWaiting(drop: (item: T) => boolean): T[] {
    const removed: T[] = [];
    for (const [host, queue] of this.queued) {
      const kept: T[] = [];
      for (const item of queue) (drop(item) ? removed : kept).push(item);
      if (kept.length) this.queued.set(host, kept);
      else this.queued.delete(host);
    }
    return removed;
  }

  /** How many are running for `host` now. */
  runningFor(host: string): number {
    return this.running.get(host) ?? 0;
  }

  private run(host: string, item: T): void {
    this.running.set(host, this.runningFor(host) + 1);
    let finished = false;
    this.start(item, () => {
      if (finished) return;
      finished = true;
      this.finish(host);
    });
  }

  private finish(host: string): void {
    const left = this.runningFor(host) - 1;
    if (left > 0) this.running.set(host, left);
    else this.running.delete(host);
    const queue = this.queued.get(host);
    const next = queue?.shift();
    if (queue && !queue.length) this.queued.delete(host);
    if (next !== undefined) this.run(host, next);
  }
}

/** The host a delivery's connection goes to: the URL's host name (any port), or the text itself if it is no URL. */
export function pushHostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}
