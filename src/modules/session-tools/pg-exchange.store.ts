import type { Pool, PoolClient } from 'pg';
import { createPostgresPool, inTransaction, migrate, namedQuery, postgresStartError } from '../../common/storage/postgres';
import { ExchangeRecord, interrupted, pairOf, runIdsOf } from './exchange-record';
import type {
  AgentPairCount,
  ExchangeOwner,
  ExchangeStore,
  OwnedExchanges,
  OwnedExchangesSource,
  OwnerExchangeCount,
} from './exchange-store.port';
import { EXCHANGE_MIGRATION_SCOPE, EXCHANGE_MIGRATIONS, PG_EXCHANGE_SQL } from './pg-exchange-schema';

type Sql = (sql: string, params?: Readonly<Record<string, unknown>>) => Promise<Array<Record<string, unknown>>>;

interface QueuedSave {
  current: () => ExchangeRecord;
  resolve: () => void;
  reject: (err: Error) => void;
}

export interface PgExchangeStoreOptions extends ExchangeOwner {
  /** How many exchanges to keep, read at each new exchange (a config reload applies to the next one). */
  keep: () => number;
  /** Exchanges the last process on this state dir left running were marked interrupted at open. */
  onInterrupted?: (count: number) => void;
}

/**
 * The exchange store on PostgreSQL, shared by replicas (docs/deploy.md). Saves queued while a write runs are written
 * together in the next transaction — one write at a time per process, as the SQLite store's group commit, so one
 * exchange's states are written in order. A transaction with a new exchange takes the cut's advisory lock first:
 * replicas' new exchanges then take turns, and the newest `keep` of all of them are left. Opening it marks the
 * exchanges the last process on this state dir left running; those of other replicas are left to their owner, or to
 * the sweep once its lease is gone (OwnedExchanges).
 */
export class PgExchangeStore implements ExchangeStore, OwnedExchanges, OwnedExchangesSource {
  private closed = false;
  private queued: QueuedSave[] = [];
  /** The writes, one after another. Never rejects: each batch settles its own saves. */
  private writes: Promise<void> = Promise.resolve();

  private constructor(
    private readonly pool: Pool,
    private readonly options: PgExchangeStoreOptions,
  ) {}

  /** Connects, applies the migrations, marks this state dir's leftovers; a server it cannot reach fails here. */
  static async open(url: string, options: PgExchangeStoreOptions): Promise<PgExchangeStore> {
    const pool = createPostgresPool(url, { max: 3 });
    const store = new PgExchangeStore(pool, options);
    try {
      await migrate(pool, EXCHANGE_MIGRATION_SCOPE, EXCHANGE_MIGRATIONS);
      const count = await store.interruptRunning(PG_EXCHANGE_SQL.runningOfDir, { dir: options.stateDir }, new Date().toISOString());
      if (count) options.onInterrupted?.(count);
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw postgresStartError(url, 'the sessions_send exchange store could not start', err);
    }
    return store;
  }

  save(current: () => ExchangeRecord): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the exchange store is closed'));
    return new Promise<void>((resolve, reject) => {
      this.queued.push({ current, resolve, reject });
      if (this.queued.length === 1) this.writes = this.writes.then(() => this.writeQueued());
    });
  }

  async find(runId: string): Promise<ExchangeRecord | undefined> {
    const [row] = await this.read(PG_EXCHANGE_SQL.byRun, { run_id: runId });
    return row && (JSON.parse(row.record as string) as ExchangeRecord);
  }

  async pairCounts(since: number): Promise<AgentPairCount[]> {
    await this.writes;
    const rows = await this.read(PG_EXCHANGE_SQL.pairsSince, { since });
    return rows.map((r) => ({ from: r.from_agent as string, to: r.to_agent as string, count: r.n as number }));
  }

  /** Replicas share this store: it knows whose each running exchange is. */
  ownedExchanges(): OwnedExchanges {
    return this;
  }

  async runningByOwner(): Promise<OwnerExchangeCount[]> {
    const rows = await this.read(PG_EXCHANGE_SQL.runningByOwner, {});
    return rows.map((r) => ({ owner: r.owner as string, leased: r.leased === true, exchanges: r.n as number }));
  }

  interruptOwned(owner: string, at: string): Promise<number> {
    return this.interruptRunning(PG_EXCHANGE_SQL.runningOfOwner, { owner }, at, PG_EXCHANGE_SQL.lockOwner);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.writes;
    await this.pool.end();
  }

  private async writeQueued(): Promise<void> {
    const batch = this.queued.splice(0);
    try {
      const records = batch.map((q) => q.current());
      await this.transaction(async (sql) => {
        // Taken before any row is written: a cut waits for no row lock of a writer that would wait for this lock.
        await sql(PG_EXCHANGE_SQL.lockCut);
        let inserted = false;
        for (const record of records) inserted = (await this.write(sql, record)) || inserted;
        const keep = this.options.keep();
        if (inserted && Number.isFinite(keep)) await sql(PG_EXCHANGE_SQL.cut, { keep: Math.max(1, Math.floor(keep)) });
      });
      for (const q of batch) q.resolve();
    } catch (err) {
      for (const q of batch) q.reject(err as Error);
    }
  }

  /** One exchange: true when it was new. */
  private async write(sql: Sql, record: ExchangeRecord): Promise<boolean> {
    const [row] = await sql(PG_EXCHANGE_SQL.upsert, {
      run_id: record.runId,
      state: record.state,
      updated_at: Date.parse(record.updatedAt),
      record: JSON.stringify(record),
      ...pairOf(record),
      owner: this.options.owner,
      owner_dir: this.options.stateDir,
      owner_leased: this.options.leased(),
    });
    // No row back: it was found interrupted, and stays so.
    if (row) await sql(PG_EXCHANGE_SQL.addRuns, { run_ids: runIdsOf(record), run_id: record.runId });
    return row?.inserted === true;
  }

  /** The running exchanges `select` locks, marked interrupted in one transaction (after `lock`, when given). */
  private interruptRunning(select: string, params: Record<string, unknown>, at: string, lock?: string): Promise<number> {
    return this.transaction(async (sql) => {
      if (lock) await sql(lock, params);
      const rows = await sql(select, params);
      for (const row of rows) {
        const record = interrupted(JSON.parse(row.record as string) as ExchangeRecord, at);
        await sql(PG_EXCHANGE_SQL.markInterrupted, { run_id: row.run_id, updated_at: Date.parse(at), record: JSON.stringify(record) });
      }
      return rows.length;
    });
  }

  private async transaction<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    const client: PoolClient = await this.pool.connect();
    try {
      const sql: Sql = async (text, params = {}) => {
        return await namedQuery(client, text, params);
      };
      return await inTransaction(client, () => fn(sql));
    } finally {
      client.release();
    }
  }

  private async read(text: string, params: Readonly<Record<string, unknown>>): Promise<Array<Record<string, unknown>>> {
    if (this.closed) throw new Error('the exchange store is closed');
    return await namedQuery(this.pool, text, params);
  }
}
