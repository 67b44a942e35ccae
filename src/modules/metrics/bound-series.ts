import type { Counter, Histogram } from 'prom-client';

/** The value of a label whose name is not one the config knows: a caller never mints a series. */
export const OTHER = 'other';

type Child = { inc(value?: number): void } | { observe(value: number): void };

/**
 * The children of a metric, bound once per combination of label values and kept: recording is a Map lookup and
 * an add, not prom-client's hashing of a labels object on every call. The combinations are bounded by the
 * callers (names from the config, fixed outcome sets), so the map is too.
 */
class BoundChildren<C extends Child> {
  private readonly children = new Map<string, C>();

  constructor(private readonly bind: (values: string[]) => C) {}

  get(values: string[]): C {
    const key = values.join('\u0000');
    let child = this.children.get(key);
    if (!child) {
      child = this.bind(values);
      this.children.set(key, child);
    }
    return child;
  }
}

export class BoundCounter {
  private readonly children: BoundChildren<{ inc(value?: number): void }>;

  constructor(counter: Counter<string>) {
    this.children = new BoundChildren((values) => counter.labels(...values));
  }

  inc(...values: string[]): void {
    this.children.get(values).inc();
  }

  /** Adds `by` (a non-negative amount: counters only go up). */
  add(by: number, ...values: string[]): void {
    this.children.get(values).inc(by);
  }

  /** Makes the series exist at 0, so a rate over it is defined before the first event. */
  touch(...values: string[]): void {
    this.children.get(values).inc(0);
  }
}

export class BoundHistogram {
  private readonly children: BoundChildren<{ observe(value: number): void }>;

  constructor(histogram: Histogram<string>) {
    this.children = new BoundChildren((values) => histogram.labels(...values));
  }

  observe(seconds: number, ...values: string[]): void {
    this.children.get(values).observe(seconds);
  }
}
