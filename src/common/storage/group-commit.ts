import type { SqliteDatabase } from './sqlite';

interface PendingWrite {
  write: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Thrown out of an optimistic batch to roll it back whole. */
class RetryIsolated extends Error {}

/**
 * Group commit for SQLite: writes submitted during one event-loop turn run together in a single transaction
 * (one WAL commit instead of one per write), and a failing write is rolled back alone. A write's promise
 * settles only after the commit that contains it, so "acknowledged" still means "on disk". Under concurrent
 * load this turns dozens of commits into one; alone, it costs one setImmediate.
 *
 * Optimistic: the batch first runs without savepoints (two statements fewer per write, and writes almost
 * never fail). If one throws, the whole transaction is rolled back and the batch runs again with each write
 * in its own savepoint, so only the failing one is lost. Writes must therefore be safe to run twice — they
 * only touch the database and values they compute; in-memory state a write keeps must be reset by
 * `onRollback`.
 */
export class GroupCommit {
  private pending: PendingWrite[] = [];
  private scheduled = false;
  private batchTransaction?: { db: SqliteDatabase; run: BatchTransaction };

  /**
   * `database` is asked for the connection at commit time (the store opens it lazily). `beforeCommit` is work
   * that belongs to the batch as a whole, run once inside its transaction after the writes; if it throws,
   * the batch fails like a failed commit.
   */
  constructor(
    private readonly database: () => SqliteDatabase,
    private readonly beforeCommit: () => void = () => undefined,
    private readonly onRollback: () => void = () => undefined,
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
    let outcomes: Outcome[];
    try {
      const runBatch = this.batchTransactionOf(this.database());
      try {
        outcomes = runBatch(batch, false);
      } catch (error) {
        if (!(error instanceof RetryIsolated)) throw error;
        this.onRollback();
        outcomes = runBatch(batch, true);
      }
    } catch (error) {
      // The commit itself failed (disk full, database closed): none of the batch is stored.
      this.onRollback();
      for (const op of batch) op.reject(error);
      return;
    }
    batch.forEach((op, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) op.resolve(outcome.value);
      else op.reject(outcome.error);
    });
  }

  /**
   * One transaction over a batch (`isolated`: a savepoint per write, so a failing one is rolled back alone), made
   * once per connection: better-sqlite3 builds a transaction function and its four variants on every
   * `transaction()` call, which cost more than the BEGIN it wraps.
   */
  private batchTransactionOf(db: SqliteDatabase): BatchTransaction {
    if (this.batchTransaction?.db === db) return this.batchTransaction.run;
    // Called inside the outer transaction, a transaction function becomes a savepoint.
    const savepoint = db.transaction((write: () => unknown) => write());
    const run = db.transaction((batch: PendingWrite[], isolated: boolean): Outcome[] => {
      const outcomes: Outcome[] = [];
      for (const { write } of batch) {
        if (!isolated) {
          try {
            outcomes.push({ ok: true, value: write() });
          } catch (error) {
            // Disk full, I/O error: SQLite has rolled the whole transaction back itself; fail the batch.
            if (!db.inTransaction) throw error;
            throw new RetryIsolated('a write failed: retry the batch with a savepoint per write');
          }
          continue;
        }
        try {
          outcomes.push({ ok: true, value: savepoint(write) });
        } catch (error) {
          // Without the transaction the writes after this one would each commit on their own, outside the
          // batch, while the batch is reported failed: stop here instead.
          if (!db.inTransaction) throw error;
          outcomes.push({ ok: false, error });
        }
      }
      this.beforeCommit();
      return outcomes;
    });
    this.batchTransaction = { db, run };
    return run;
  }
}

type BatchTransaction = (batch: PendingWrite[], isolated: boolean) => Outcome[];

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };
