import type { SqliteDatabase, SqliteStatement } from '../../../../common/storage/sqlite';
import type { A2aTaskStore } from './sqlite-task.store';
import type {
  DeliveryCounts,
  DueDelivery,
  ListedDelivery,
  PushConfigInput,
  PushConfigRow,
  PushDeliveryRow,
  PushStore,
} from '../push-store.port';
import { pushConfigColumns } from './sqlite-push-schema';

const statements = new WeakMap<SqliteDatabase, ReturnType<typeof prepare>>();

function prepare(db: SqliteDatabase) {
  const s = (sql: string): SqliteStatement => db.prepare(sql);
  return {
    // The task's seq is looked up in the same transaction: a task inserted earlier in the same batch is found.
    upsert: s(
      `INSERT INTO push_configs (task_seq, task_id, peer, id, url, token, auth_scheme, auth_credentials, wire, created_at)
       SELECT seq, id, @peer, @config_id, @url, @token, @auth_scheme, @auth_credentials, @wire, @created_at FROM tasks WHERE id = @task_id
       ON CONFLICT (task_seq, id) DO UPDATE SET url = excluded.url, token = excluded.token, auth_scheme = excluded.auth_scheme,
         auth_credentials = excluded.auth_credentials, wire = excluded.wire
       RETURNING *`,
    ),
    taskSeq: s('SELECT seq FROM tasks WHERE id = ?'),
    get: s('SELECT * FROM push_configs WHERE task_seq = ? AND id = ?'),
    list: s('SELECT * FROM push_configs WHERE task_seq = ? ORDER BY seq'),
    count: s('SELECT COUNT(*) AS n FROM push_configs WHERE task_seq = ?'),
    remove: s('DELETE FROM push_configs WHERE task_seq = ? AND id = ? RETURNING seq'),
    dropPending: s(`DELETE FROM push_outbox WHERE config_seq = ? AND state = 'pending'`),
    // Per config only its oldest pending delivery, so a config's events arrive in order.
    due: s(
      `SELECT o.*, c.url, c.token, c.auth_scheme, c.auth_credentials, c.wire, c.peer, c.task_id, c.id AS config_id
         FROM push_outbox o JOIN push_configs c ON c.seq = o.config_seq
        WHERE o.state = 'pending' AND o.next_at <= @now
          AND NOT EXISTS (SELECT 1 FROM push_outbox p WHERE p.config_seq = o.config_seq AND p.state = 'pending' AND p.seq < o.seq)
        ORDER BY o.next_at, o.seq LIMIT @limit`,
    ),
    // The earliest heads (per config its oldest pending delivery: the others wait for it, so they are not due);
    // claimed heads, at most as many as there are claims, are among them.
    earliest: s(
      `SELECT seq, next_at FROM push_outbox o WHERE state = 'pending'
          AND NOT EXISTS (SELECT 1 FROM push_outbox p WHERE p.config_seq = o.config_seq AND p.state = 'pending' AND p.seq < o.seq)
        ORDER BY next_at, seq LIMIT ?`,
    ),
    delivered: s(`UPDATE push_outbox SET state = 'delivered', attempts = attempts + 1, done_at = ?, last_error = NULL WHERE seq = ?`),
    retry: s(`UPDATE push_outbox SET attempts = attempts + 1, next_at = ?, last_error = ? WHERE seq = ?`),
    failed: s(`UPDATE push_outbox SET state = 'failed', attempts = attempts + 1, done_at = ?, last_error = ? WHERE seq = ?`),
    listed: s(
      `SELECT o.seq, o.config_seq, o.task_seq, o.n, o.closes, o.state, o.attempts, o.next_at, o.last_error, o.created_at, o.done_at,
              c.url, c.peer, c.task_id, c.id AS config_id
         FROM push_outbox o JOIN push_configs c ON c.seq = o.config_seq
        WHERE (@state IS NULL OR o.state = @state) ORDER BY o.seq DESC LIMIT @limit`,
    ),
    counts: s('SELECT state, COUNT(*) AS n FROM push_outbox GROUP BY state'),
    pruneDone: s(`DELETE FROM push_outbox WHERE state != 'pending' AND done_at <= ?`),
  };
}

/**
 * The PushStore on SQLite: push configs and the delivery outbox (sqlite-push-schema.ts), kept in the task database through the
 * task store's own connection and group commit: a config is written like a task, a delivery's outcome like a task's
 * transition. One process owns the file, so claims are kept in memory: a restarted process claims anew.
 */
export class SqlitePushStore implements PushStore {
  readonly shared = false;
  /** Claimed deliveries (seq) and until when. */
  private readonly claims = new Map<number, number>();

  constructor(private readonly tasks: A2aTaskStore) {}

  private on<T>(db: SqliteDatabase, fn: (st: ReturnType<typeof prepare>) => T): T {
    let st = statements.get(db);
    if (!st) statements.set(db, (st = prepare(db)));
    return fn(st);
  }

  /** Synchronous underneath; async so that a failure (a closed store) is a rejection, as on a shared server. */
  private async read<T>(fn: (st: ReturnType<typeof prepare>) => T, empty: T): Promise<T> {
    return this.tasks.query((db) => this.on(db, fn), empty);
  }

  private write<T>(fn: (st: ReturnType<typeof prepare>) => T): Promise<T> {
    return this.tasks.transact((db) => this.on(db, fn));
  }

  taskSeq(taskId: string): Promise<number | undefined> {
    return this.read(() => this.tasks.taskSeq(taskId), undefined);
  }

  save(task: { id: string; peer: string }, config: PushConfigInput, max: number): Promise<PushConfigRow | 'full' | 'no-task'> {
    return this.write((st) => {
      const seq = (st.taskSeq.get(task.id) as { seq: number } | undefined)?.seq;
      if (seq === undefined) return 'no-task';
      const exists = st.get.get(seq, config.id) !== undefined;
      if (!exists && (st.count.get(seq) as { n: number }).n >= max) return 'full';
      return st.upsert.get(pushConfigColumns(task, config)) as PushConfigRow;
    });
  }

  get(taskSeq: number, id: string): Promise<PushConfigRow | undefined> {
    return this.read((st) => st.get.get(taskSeq, id) as PushConfigRow | undefined, undefined);
  }

  list(taskSeq: number): Promise<PushConfigRow[]> {
    return this.read((st) => st.list.all(taskSeq) as PushConfigRow[], []);
  }

  remove(taskSeq: number, id: string): Promise<boolean> {
    return this.write((st) => {
      const row = st.remove.get(taskSeq, id) as { seq: number } | undefined;
      if (row) st.dropPending.run(row.seq);
      return row !== undefined;
    });
  }

  async claimDue(now: number, limit: number, leaseMs: number): Promise<DueDelivery[]> {
    for (const [seq, until] of this.claims) if (until <= now) this.claims.delete(seq);
    // Claimed rows still hold their config's turn; they are read (and skipped) within a limit raised by their number.
    const rows = await this.read((st) => st.due.all({ now, limit: limit + this.claims.size }) as DueDelivery[], []);
    const claimed = rows.filter((row) => !this.claims.has(row.seq)).slice(0, limit);
    for (const row of claimed) this.claims.set(row.seq, now + leaseMs);
    return claimed;
  }

  renewClaims(seqs: readonly number[], now: number, leaseMs: number): Promise<number[]> {
    const held = seqs.filter((seq) => (this.claims.get(seq) ?? 0) > now);
    for (const seq of held) this.claims.set(seq, now + leaseMs);
    return Promise.resolve(held);
  }

  async nextDue(): Promise<number | undefined> {
    const rows = await this.read((st) => st.earliest.all(this.claims.size + 1) as Array<{ seq: number; next_at: number }>, []);
    const times = rows.map((row) => Math.max(row.next_at, this.claims.get(row.seq) ?? 0));
    return times.length ? Math.min(...times) : undefined;
  }

  markDelivered(seq: number, at: number): Promise<void> {
    this.claims.delete(seq);
    return this.write((st) => void st.delivered.run(at, seq));
  }

  markRetry(seq: number, nextAt: number, error: string): Promise<void> {
    this.claims.delete(seq);
    return this.write((st) => void st.retry.run(nextAt, error, seq));
  }

  markFailed(seq: number, at: number, error: string): Promise<void> {
    this.claims.delete(seq);
    return this.write((st) => void st.failed.run(at, error, seq));
  }

  listed(state: PushDeliveryRow['state'] | undefined, limit: number): Promise<ListedDelivery[]> {
    return this.read((st) => st.listed.all({ state: state ?? null, limit }) as ListedDelivery[], []);
  }

  async counts(): Promise<DeliveryCounts> {
    const out = { pending: 0, delivered: 0, failed: 0 };
    for (const row of await this.read((st) => st.counts.all() as Array<{ state: PushDeliveryRow['state']; n: number }>, []))
      out[row.state] = row.n;
    return out;
  }

  pruneDone(before: number): Promise<number> {
    return this.write((st) => st.pruneDone.run(before).changes);
  }
}
