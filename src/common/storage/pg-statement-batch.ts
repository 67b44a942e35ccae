/**
 * Group commit for PostgreSQL: writes of one kind submitted while the previous batch is on its way are sent
 * together as one statement (one round trip, one transaction), the way the SQLite stores' GroupCommit joins the
 * writes of an event-loop turn into one commit. A write's promise settles after the statement that carries it has
 * committed, so "acknowledged" still means "stored".
 *
 * An idle store waits for nothing more than one `setImmediate`; a busy one sends one statement per batch instead
 * of one per write. If the batch's statement fails (a constraint a single write trips, a deadlock with another
 * replica), nothing of it is stored and each write is sent again on its own, so only the failing one fails; a
 * connection lost under a batch fails its writes, as it would have failed each of them alone.
 */
export interface StatementBatchOptions<I, R> {
  /** One statement for every item, in one transaction; answers the results in the items' order. */
  many: (items: readonly I[]) => Promise<R[]>;
  /** The same write for one item alone (the fallback when the batch fails). */
  one: (item: I) => Promise<R>;
  /** Batches on their way at once; the writes that come meanwhile wait for the next. */
  inFlight?: number;
  /** Items per statement at most (parameters and locks held by one transaction stay bounded). */
  maxItems?: number;
}

interface Pending<I, R> {
  item: I;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

export class PgStatementBatch<I, R> {
  private pending: Array<Pending<I, R>> = [];
  private running = 0;
  private scheduled = false;
  private idle: Array<() => void> = [];
  private readonly inFlight: number;
  private readonly maxItems: number;

  constructor(private readonly options: StatementBatchOptions<I, R>) {
    this.inFlight = options.inFlight ?? 1;
    this.maxItems = options.maxItems ?? 256;
  }

  /** Queues `item`; settles once the statement carrying it has committed (or failed for it). */
  submit(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Resolves when nothing is queued or on its way. */
  drained(): Promise<void> {
    if (!this.pending.length && !this.running) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private schedule(): void {
    if (this.scheduled || this.running >= this.inFlight || !this.pending.length) return;
    this.scheduled = true;
    // The rest of this turn's writes join the batch.
    setImmediate(() => {
      this.scheduled = false;
      this.send();
    });
  }

  private send(): void {
    if (this.running >= this.inFlight || !this.pending.length) return;
    const batch = this.pending.splice(0, this.maxItems);
    this.running++;
    void this.commit(batch).finally(() => {
      this.running--;
      this.schedule();
      if (this.pending.length || this.running) return;
      const waiting = this.idle;
      this.idle = [];
      for (const resolve of waiting) resolve();
    });
  }

  private async commit(batch: Array<Pending<I, R>>): Promise<void> {
    if (batch.length === 1) return settle(batch[0], () => this.options.one(batch[0].item));
    let results: R[];
    try {
      results = await this.options.many(batch.map((p) => p.item));
      if (results.length !== batch.length) throw new Error(`a batch of ${batch.length} writes answered ${results.length} results`);
    } catch (err) {
      // Without a SQLSTATE the connection failed, perhaps after the commit: sending the writes again could store
      // them twice, so each is failed as a single write would have been.
      if (!(err as { code?: unknown }).code) {
        for (const p of batch) p.reject(err);
        return;
      }
      // The server refused the statement, so nothing of the batch is stored: each write on its own, so the failing
      // one fails alone.
      await Promise.all(batch.map((p) => settle(p, () => this.options.one(p.item))));
      return;
    }
    batch.forEach((p, i) => p.resolve(results[i]));
  }
}

async function settle<I, R>(pending: Pending<I, R>, write: () => Promise<R>): Promise<void> {
  try {
    pending.resolve(await write());
  } catch (err) {
    pending.reject(err);
  }
}
