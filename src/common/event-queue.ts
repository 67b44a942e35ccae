/**
 * Items pushed as they happen (a run's reply pieces), read once in order by one reader that waits while the queue is
 * empty: what turns a callback into the async iterable a streamed answer is written from. Pushes after `close` are
 * dropped.
 */
export class EventQueue<T> {
  private readonly items: T[] = [];
  private closed = false;
  private wake?: () => void;

  push(item: T): void {
    if (this.closed) return;
    this.items.push(item);
    this.wake?.();
  }

  close(): void {
    this.closed = true;
    this.wake?.();
  }

  /** `first`, then every item as it comes, until the queue is closed and read empty. */
  async *after(...first: T[]): AsyncIterable<T> {
    yield* first;
    for (;;) {
      const item = this.items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}
