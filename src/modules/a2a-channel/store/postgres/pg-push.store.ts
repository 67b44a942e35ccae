import type { Pool, PoolClient } from 'pg';
import { inTransaction, namedQuery } from '../../../../common/storage/postgres';
import { PG_PUSH_SQL } from './pg-push-schema';
import type {
  DeliveryCounts,
  DueDelivery,
  ListedDelivery,
  PushConfigInput,
  PushConfigRow,
  PushDeliveryRow,
  PushStore,
} from '../push-store.port';
import { pushConfigColumns } from '../sqlite/sqlite-push-schema';

type Rows = Array<Record<string, unknown>>;

/**
 * The PushStore on PostgreSQL, over the task store's pool (PgTaskStore.push): the outbox rows are inserted by the
 * task store in each event's transaction (pg-push-schema.ts PG_RECORD_EVENTS), so an acknowledged event always has its
 * deliveries. Replicas share the outbox: a delivery is claimed with a lease (`claimed_until`, taken under
 * `FOR UPDATE SKIP LOCKED`), so two replicas never send one row at the same time, and a dead replica's claims are
 * taken again when their lease ends — at least once, as on SQLite.
 */
export class PgPushStore implements PushStore {
  readonly shared = true;

  constructor(
    private readonly pool: Pool,
    private readonly closed: () => boolean,
  ) {}

  async taskSeq(taskId: string): Promise<number | undefined> {
    const [row] = await this.query(PG_PUSH_SQL.taskSeq, { task_id: taskId });
    return row?.seq as number | undefined;
  }

  /** The task's row is locked for the transaction, so concurrent saves for one task count one after another. */
  save(task: { id: string; peer: string }, config: PushConfigInput, max: number): Promise<PushConfigRow | 'full' | 'no-task'> {
    return this.transaction(async (sql) => {
      const [found] = await sql(PG_PUSH_SQL.lockTask, { task_id: task.id });
      if (!found) return 'no-task';
      const taskSeq = found.seq as number;
      const exists = (await sql(PG_PUSH_SQL.get, { task_seq: taskSeq, id: config.id })).length > 0;
      if (!exists && ((await sql(PG_PUSH_SQL.count, { task_seq: taskSeq }))[0].n as number) >= max) return 'full';
      const [row] = await sql(PG_PUSH_SQL.upsert, { task_seq: taskSeq, ...pushConfigColumns(task, config) });
      return row as unknown as PushConfigRow;
    });
  }

  async get(taskSeq: number, id: string): Promise<PushConfigRow | undefined> {
    const [row] = await this.query(PG_PUSH_SQL.get, { task_seq: taskSeq, id });
    return row as unknown as PushConfigRow | undefined;
  }

  async list(taskSeq: number): Promise<PushConfigRow[]> {
    return (await this.query(PG_PUSH_SQL.list, { task_seq: taskSeq })) as unknown as PushConfigRow[];
  }

  remove(taskSeq: number, id: string): Promise<boolean> {
    return this.transaction(async (sql) => {
      const [row] = await sql(PG_PUSH_SQL.remove, { task_seq: taskSeq, id });
      if (row) await sql(PG_PUSH_SQL.dropPending, { config_seq: row.seq });
      return row !== undefined;
    });
  }

  async claimDue(now: number, limit: number, leaseMs: number): Promise<DueDelivery[]> {
    return (await this.query(PG_PUSH_SQL.claimDue, { now, limit, until: now + leaseMs })) as unknown as DueDelivery[];
  }

  async renewClaims(seqs: readonly number[], now: number, leaseMs: number): Promise<number[]> {
    if (!seqs.length) return [];
    const rows = await this.query(PG_PUSH_SQL.renewClaims, { seqs: [...seqs], now, until: now + leaseMs });
    return rows.map((row) => Number(row.seq));
  }

  async nextDue(): Promise<number | undefined> {
    const [row] = await this.query(PG_PUSH_SQL.nextDue, {});
    return (row?.at as number | null) ?? undefined;
  }

  async markDelivered(seq: number, at: number): Promise<void> {
    await this.query(PG_PUSH_SQL.delivered, { seq, at });
  }

  async markRetry(seq: number, nextAt: number, error: string): Promise<void> {
    await this.query(PG_PUSH_SQL.retry, { seq, next_at: nextAt, error });
  }

  async markFailed(seq: number, at: number, error: string): Promise<void> {
    await this.query(PG_PUSH_SQL.failed, { seq, at, error });
  }

  async listed(state: PushDeliveryRow['state'] | undefined, limit: number): Promise<ListedDelivery[]> {
    return (await this.query(PG_PUSH_SQL.listed, { state: state ?? null, limit })) as unknown as ListedDelivery[];
  }

  async counts(): Promise<DeliveryCounts> {
    const out = { pending: 0, delivered: 0, failed: 0 };
    for (const row of await this.query(PG_PUSH_SQL.counts, {})) out[row.state as PushDeliveryRow['state']] = row.n as number;
    return out;
  }

  async pruneDone(before: number): Promise<number> {
    return (await this.query(PG_PUSH_SQL.pruneDone, { before })).length;
  }

  private async query(text: string, params: Readonly<Record<string, unknown>>): Promise<Rows> {
    if (this.closed()) throw new Error('the A2A task store is closed');
    return await namedQuery(this.pool, text, params);
  }

  private async transaction<T>(
    fn: (sql: (text: string, params: Readonly<Record<string, unknown>>) => Promise<Rows>) => Promise<T>,
  ): Promise<T> {
    if (this.closed()) throw new Error('the A2A task store is closed');
    const client: PoolClient = await this.pool.connect();
    let broken = false;
    try {
      const sql = async (text: string, params: Readonly<Record<string, unknown>>) => {
        return await namedQuery(client, text, params);
      };
      return await inTransaction(client, () => fn(sql)).catch((err: unknown) => {
        broken = !(err as { code?: string }).code; // a driver error (no SQLSTATE): the connection may be unusable
        throw err;
      });
    } finally {
      client.release(broken);
    }
  }
}
