import type { SqliteDatabase } from './sqlite';

interface PendingWrite {
  write: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for SQLite: writes submitted during one event-loop turn run together in a single transaction
 * (one WAL commit instead of one per write), each inside its own savepoint so a failing write is rolled back
 * alone. A write's promise settles only after the commit that contains it, so "acknowledged" still means
 * "on disk". Under concurrent load this turns dozens of commits into one; alone, it costs one setImmediate.
 */
export class GroupCommit {
  private pending: PendingWrite[] = [];
  private scheduled = false;

  /**
   * `database` is asked for the connection at commit time (the store opens it lazily). `beforeCommit` is work
   * that belongs to the batch as a whole, run once inside its transaction after the writes; if it throws,
   * the batch fails like a failed commit.
   */
  constructor(
    private readonly database: () => SqliteDatabase,
    private readonly beforeCommit: () => void = () => undefined,
  ) {}

  /** Queues `write` (run synchronously inside the batch transaction, in submission order). */
  run<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ write, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits whatever is pending now (also called before the database closes). */
  flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    if (!batch.length) return;
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      const db = this.database();
      // Called inside the outer transaction, a transaction function becomes a savepoint.
      const isolated = db.transaction((write: () => unknown) => write());
      db.transaction(() => {
        for (const { write } of batch) {
          try {
            outcomes.push({ ok: true, value: isolated(write) });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
        this.beforeCommit();
      })();
    } catch (error) {
      // The commit itself failed (disk full, database closed): none of the batch is stored.
      for (const op of batch) op.reject(error);
      return;
    }
    batch.forEach((op, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) op.resolve(outcome.value);
      else op.reject(outcome.error);
    });
  }
}
