import type { Pool, PoolClient } from 'pg';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { inTransaction, namedQuery } from '../../common/storage/postgres';
import { LABEL_INDEX } from './pg-session-schema';
import type { Sql } from './pg-session-writes';

/**
 * The order of the PostgreSQL session store's writes in this process: the writes of one session key run one after
 * the other, in the order they were called (a chain per key), each as one transaction (retried once when a label
 * claim raced another writer's) or as one statement; a read waits for the writes of its key requested before it.
 */
export class PgSessionWriteQueue {
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly pool: Pool,
    /** One statement on any pooled connection (a transaction by itself). */
    private readonly statement: Sql,
  ) {}

  /** Whether writes of `key` are queued or running in this process. */
  pending(key: string): boolean {
    return this.chains.has(key);
  }

  /** Waits for the writes of `key` already requested in this process (their outcome is their callers' business). */
  async settled(key: string): Promise<void> {
    await this.chains.get(key);
  }

  /** Waits for every write under way. */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * After the writes of the same session called before it: one transaction, or (`'statement'`) one statement that
   * is a transaction by itself, sent without BEGIN and COMMIT.
   */
  run<T>(key: string, fn: (sql: Sql) => Promise<T>, as: 'transaction' | 'statement' = 'transaction'): Promise<T> {
    const run = as === 'statement' ? () => fn(this.statement) : () => this.transaction(fn);
    const done = (this.chains.get(key) ?? Promise.resolve()).then(run, run);
    const tail = done.then(
      () => undefined,
      () => undefined,
    );
    this.chains.set(key, tail);
    void tail.then(() => this.chains.get(key) === tail && this.chains.delete(key));
    this.inFlight.add(tail);
    void tail.then(() => this.inFlight.delete(tail));
    return done;
  }

  /**
   * One transaction. A claim of a label that a concurrent writer took first trips the unique index; the write is run
   * once more, and its own check then names the holder (409).
   */
  private async transaction<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    try {
      return await this.attempt(fn);
    } catch (err) {
      if (!isLabelRace(err)) throw err;
    }
    try {
      return await this.attempt(fn);
    } catch (err) {
      if (!isLabelRace(err)) throw err;
      throw new AppError(ErrorCode.Conflict, 'the label was taken by another session of the agent meanwhile; try again');
    }
  }

  /** BEGIN … COMMIT around `fn` on a pooled connection. */
  private async attempt<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    const client: PoolClient = await this.pool.connect();
    let broken = false;
    try {
      const sql: Sql = async (text, params = {}) => {
        return await namedQuery(client, text, params);
      };
      return await inTransaction(client, () => fn(sql));
    } catch (err) {
      // A driver error (no SQLSTATE) may leave the connection unusable; an AppError is a rule the write refused.
      broken = !(err instanceof AppError) && !(err as { code?: string }).code;
      throw err;
    } finally {
      client.release(broken);
    }
  }
}

function isLabelRace(err: unknown): boolean {
  const { code, constraint } = err as { code?: string; constraint?: string };
  return code === '23505' && constraint === LABEL_INDEX;
}
