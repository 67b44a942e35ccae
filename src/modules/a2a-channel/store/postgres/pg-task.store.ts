import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { isTerminalState, type TaskState } from '../../../../common/a2a-protocol';
import { createPostgresPool, inTransaction, migrate, namedQuery, postgresStartError } from '../../../../common/storage/postgres';
import { PgStatementBatch } from '../../../../common/storage/pg-statement-batch';
import { keysetPage, sqlFilter } from '../../../../common/storage/sql-filter';
import { PgPushKeyStore } from './pg-push-key.store';
import { PgPushStore } from './pg-push.store';
import { PG_RECORD_EVENTS } from './pg-push-schema';
import { PG_READ_COLUMNS, PG_TASK_SQL, TASK_MIGRATION_SCOPE, TASK_MIGRATIONS } from './pg-task-schema';
import { ArtifactChunk, artifactUpdateBody, TaskEvent } from '../../model/task-events';
import type { A2aTask, TaskTransition } from '../../model/task';
import { taskPageSql } from '../sqlite/task-page-query';
import { transitionEvents, transitionWrite } from '../task-transition-write';
import { fromRow, toRow, type TaskRow } from '../sqlite/sqlite-task-schema';
import type {
  PeerAgentCount,
  RetentionPolicy,
  SweepOutcome,
  TaskListFilter,
  TaskPage,
  TaskPageQuery,
  TaskStore,
  TaskStoreHooks,
} from '../task-store.port';
import type { OwnedTasks, OwnedTasksSource, OwnerTaskCount } from '../task-ownership.port';

export interface PgTaskStoreOptions {
  /** The process that runs the tasks it inserts (its replica id, new at each start). */
  owner: string;
  /**
   * The state dir this process holds (`host:path`, one process at a time): failUnsettled at start fails the tasks
   * left unsettled by the last process on it. Defaults to `owner`.
   */
  stateDir?: string;
  /** Whether the owner keeps a heartbeat lease in the cluster (asked at each insert); without one nobody sweeps its tasks. */
  leased?: () => boolean;
  poolSize?: number;
}

type Sql = (sql: string, params?: Readonly<Record<string, unknown>>) => Promise<Array<Record<string, unknown>>>;

/** A task's row as inserted: its columns, whether it is finished, and who owns it. */
type InsertedRow = TaskRow & { terminal: boolean; owner: string; owner_dir: string; owner_leased: boolean };

/** What one transaction recorded: its events, whether they queued push deliveries, and tasks no stream follows. */
interface Recorded extends Array<TaskEvent> {
  pushQueued?: boolean;
  unfollowed?: Set<string>;
}

/**
 * The TaskStore on PostgreSQL, shared by replicas (docs/deploy.md). Every write is one transaction on a pooled
 * connection and its promise settles after COMMIT; its events are published to the hooks after that commit, like
 * the SQLite store's. Writes of one task run in the order they were called (a chain per task id), so a streamed
 * reply's chunks keep their order though the pool runs writes in parallel. Counts are read from the table rather
 * than kept in memory: another replica may have written since. Each event queues its push deliveries in its own
 * statement; the push configs and the outbox are read and settled by `push` (pg-push.store.ts), over the same pool.
 */
export class PgTaskStore implements TaskStore, OwnedTasks, OwnedTasksSource {
  private closed = false;
  /**
   * Inserts of different tasks made while the previous batch is on its way go as one statement. On the pool itself:
   * an insert acknowledged to no one yet when the store starts closing is still written (close waits for it).
   */
  private readonly inserts = new PgStatementBatch<InsertedRow, void>({
    many: async (rows) => {
      await namedQuery(this.pool, PG_TASK_SQL.insertMany, { rows: JSON.stringify(rows), keep: this.keep() });
      return rows.map(() => undefined);
    },
    one: async (row) => void (await namedQuery(this.pool, PG_TASK_SQL.insert, { ...row, keep: this.keep() })),
  });
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly inFlight = new Set<Promise<unknown>>();
  /** The push configs and the outbox of this database. */
  readonly push: PgPushStore;
  /** The push signing key every replica of this database signs with. */
  readonly pushKey: PgPushKeyStore;

  private constructor(
    private readonly pool: Pool,
    private readonly retention: RetentionPolicy,
    private readonly options: PgTaskStoreOptions,
    private readonly hooks: TaskStoreHooks,
  ) {
    this.push = new PgPushStore(pool, () => this.closed);
    this.pushKey = new PgPushKeyStore(pool, () => this.closed);
  }

  /** Connects, applies the schema migrations, and returns the store; a server it cannot reach fails here. */
  static async open(
    url: string,
    retention: RetentionPolicy,
    options: PgTaskStoreOptions,
    hooks: TaskStoreHooks = {},
  ): Promise<PgTaskStore> {
    const pool = createPostgresPool(url, { max: options.poolSize });
    try {
      await migrate(pool, TASK_MIGRATION_SCOPE, TASK_MIGRATIONS);
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw postgresStartError(url, 'the A2A task store could not start', err);
    }
    return new PgTaskStore(pool, retention, options, hooks);
  }

  /** One statement (its own transaction); a finished task's trim is its trigger's (pg-task-counts-schema.ts). */
  insert(task: A2aTask): Promise<void> {
    const terminal = isTerminalState(task.state);
    const { owner, stateDir = owner, leased } = this.options;
    const row: InsertedRow = { ...toRow(task), terminal, owner, owner_dir: stateDir, owner_leased: leased?.() ?? false };
    return this.write(task.id, () => this.inserts.submit(row), 'statement');
  }

  async get(id: string): Promise<A2aTask | undefined> {
    const [row] = await this.read(PG_TASK_SQL.get, { id });
    return row && fromRow(row as unknown as TaskRow);
  }

  transition(id: string, change: TaskTransition, at: number): Promise<A2aTask | undefined> {
    return this.write(id, async (sql, events) => {
      const row = await this.applyTransition(sql, id, change, at, events);
      return row && fromRow(row);
    });
  }

  appendArtifact(id: string, chunk: ArtifactChunk): Promise<boolean> {
    return this.write(id, async (sql, events) => {
      const [row] = await sql(PG_TASK_SQL.appendArtifact, { id, artifact_id: chunk.artifactId, text: chunk.text, append: chunk.append });
      if (!row) return false;
      const body = artifactUpdateBody({ id, contextId: row.context_id as string }, chunk);
      await this.record(sql, events, row.seq as number, [{ taskId: id, n: row.events as number, body, closes: false }], row.followed);
      return true;
    });
  }

  /**
   * Marks the task followed: from this commit on, its writers publish its events to the other replicas. A replica
   * marks it before it reads the task's events to stream them, so what it does not read is published.
   */
  async follow(id: string): Promise<void> {
    await this.read(PG_TASK_SQL.follow, { id });
  }

  get owner(): string {
    return this.options.owner;
  }

  async ownerOf(id: string): Promise<string | undefined> {
    const [row] = await this.read('SELECT owner FROM tasks WHERE id = @id', { id });
    return row?.owner as string | undefined;
  }

  async eventsAfter(id: string, after: number): Promise<TaskEvent[]> {
    const rows = await this.read(PG_TASK_SQL.eventsAfter, { id, after });
    return rows.map((row) => ({ taskId: id, n: row.n as number, body: row.body as string, closes: row.closes === true }));
  }

  async list(filter: TaskListFilter): Promise<A2aTask[]> {
    const where = sqlFilter([
      filter.peer !== undefined && ['peer = @peer', { peer: filter.peer }],
      filter.state !== undefined && ['state = @state', { state: filter.state }],
      filter.contextId !== undefined && ['context_id = @contextId', { contextId: filter.contextId }],
    ]);
    const condition = where.sql === '1' ? 'TRUE' : where.sql;
    const sql = `SELECT ${PG_READ_COLUMNS} FROM tasks WHERE ${condition} ORDER BY seq DESC LIMIT @limit`;
    return (await this.read(sql, { ...where.params, limit: filter.limit })).map((row) => fromRow(row as unknown as TaskRow));
  }

  async page(query: TaskPageQuery): Promise<TaskPage> {
    const sql = taskPageSql(query);
    const [rows, [count]] = await Promise.all([this.read(sql.page.sql, sql.page.params), this.read(sql.count.sql, sql.count.params)]);
    const page = keysetPage(rows as unknown as Array<TaskRow & { seq: number }>, query.limit);
    return {
      tasks: page.rows.map(fromRow),
      total: count.n as number,
      ...(page.last ? { next: { updatedAt: page.last.updated_at, seq: page.last.seq } } : {}),
    };
  }

  async countsSince(peers: readonly string[], since: number): Promise<PeerAgentCount[]> {
    if (!peers.length) return [];
    // The recency index (peer, updated_at): a task created since then was updated since then too.
    const rows = await this.read(
      `SELECT peer, agent_id, COUNT(*)::int AS n FROM tasks
        WHERE peer = ANY(@peers::text[]) AND updated_at >= @since AND created_at >= @since
        GROUP BY peer, agent_id ORDER BY array_position(@peers::text[], peer), agent_id COLLATE "C" NULLS FIRST`,
      { peers: [...peers], since },
    );
    return rows.map((r) => ({ peer: r.peer as string, agentId: (r.agent_id as string | null) ?? null, count: r.n as number }));
  }

  async failUnsettled(reason: (state: TaskState, id: string) => string | undefined, at: number): Promise<number> {
    const failed = await this.write(undefined, (sql, events) =>
      this.failAll(sql, events, PG_TASK_SQL.unsettled, { dir: this.options.stateDir ?? this.options.owner }, reason, at),
    );
    return failed.length;
  }

  /** Replicas share this store: it knows whose each unsettled task is. */
  ownedTasks(): OwnedTasks {
    return this;
  }

  async unsettledByOwner(): Promise<OwnerTaskCount[]> {
    const rows = await this.read(PG_TASK_SQL.unsettledByOwner, {});
    return rows.map((r) => ({ owner: r.owner as string, leased: r.leased === true, tasks: r.n as number }));
  }

  failOwned(owner: string, reason: string, at: number): Promise<A2aTask[]> {
    return this.write(undefined, async (sql, events) => {
      await sql(PG_TASK_SQL.lockOwner, { owner });
      return this.failAll(sql, events, PG_TASK_SQL.ownedUnsettled, { owner }, () => reason, at);
    });
  }

  /** Two transactions, each locking its peers' counts first in one order (PG_TASK_SQL.lockPeerCounts). */
  async sweep(now: number, expiredReason: string): Promise<SweepOutcome> {
    const idleBefore = now - this.retention.idleExpiryMs;
    const expired = await this.write(undefined, (sql, events) =>
      this.failAll(sql, events, PG_TASK_SQL.idle, { before: idleBefore }, () => expiredReason, now),
    );
    const deleted = await this.write(undefined, async (sql) => {
      const before = now - this.retention.terminalRetentionMs;
      const peers = (await sql(PG_TASK_SQL.peersOfOld, { before })).map((r) => r.peer as string);
      if (!peers.length) return 0;
      await sql(PG_TASK_SQL.lockPeerCounts, { peers });
      return (await sql(`${PG_TASK_SQL.deleteOld} RETURNING seq`, { before })).length;
    });
    return { expired, deleted };
  }

  /** Waits for the writes under way, then closes the pool; later calls fail. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([...this.inFlight]);
    await this.inserts.drained();
    await this.pool.end();
  }

  private async read(text: string, params: Readonly<Record<string, unknown>>): Promise<Array<Record<string, unknown>>> {
    if (this.closed) throw new Error('the A2A task store is closed');
    return await namedQuery(this.pool, text, params);
  }

  /**
   * One transaction; the events it records are published once it is committed. With a task id, it runs after the
   * writes of that task called before it.
   */
  private write<T>(
    taskId: string | undefined,
    fn: (sql: Sql, events: Recorded) => Promise<T>,
    as: 'transaction' | 'statement' = 'transaction',
  ): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the A2A task store is closed'));
    // A statement that records no events is a transaction by itself: sent without BEGIN and COMMIT.
    const run = as === 'statement' ? () => fn((text, params = {}) => this.read(text, params), []) : () => this.transaction(fn);
    let done: Promise<T>;
    if (taskId === undefined) done = run();
    else {
      done = (this.chains.get(taskId) ?? Promise.resolve()).then(run, run);
      const tail = done.catch(() => undefined);
      this.chains.set(taskId, tail);
      void tail.then(() => this.chains.get(taskId) === tail && this.chains.delete(taskId));
    }
    const tracked = done.catch(() => undefined);
    this.inFlight.add(tracked);
    void tracked.then(() => this.inFlight.delete(tracked));
    return done;
  }

  private async transaction<T>(fn: (sql: Sql, events: Recorded) => Promise<T>): Promise<T> {
    const client: PoolClient = await this.pool.connect();
    const events: Recorded = [];
    let broken = false;
    try {
      const sql: Sql = async (text, params = {}) => {
        return await namedQuery(client, text, params);
      };
      const result = await inTransaction(client, () => fn(sql, events)).catch((err: unknown) => {
        broken = !(err as { code?: string }).code; // a driver error (no SQLSTATE): the connection may be unusable
        throw err;
      });
      if (events.length) this.hooks.onEvents?.(events, events.unfollowed);
      if (events.pushQueued) this.hooks.onPushQueued?.();
      return result;
    } finally {
      client.release(broken);
    }
  }

  /**
   * Stores events of one task and, in the same statement, queues them for the task's push configs (pg-push-schema.ts).
   * `followed` is the task row's flag as this transaction locked it (false: nobody can be following it; unknown:
   * published).
   */
  private async record(sql: Sql, events: Recorded, taskSeq: number, recorded: readonly TaskEvent[], followed?: unknown): Promise<void> {
    const rows = recorded.map((e) => ({ n: e.n, body: e.body, closes: e.closes }));
    const queued = await sql(PG_RECORD_EVENTS, { task_seq: taskSeq, events: JSON.stringify(rows), now: Date.now() });
    if (queued.length) events.pushQueued = true;
    for (const event of recorded) {
      if (followed === false) (events.unfollowed ??= new Set()).add(event.taskId);
      events.push(event);
    }
  }

  /** The change, and its events: the artifact (a whole reply, when the change carries one), then the status. */
  private async applyTransition(sql: Sql, id: string, change: TaskTransition, at: number, events: Recorded): Promise<TaskRow | undefined> {
    const { added, params } = transitionWrite(id, change, at);
    const [found] = await sql(PG_TASK_SQL.transition, { ...params, terminal: isTerminalState(change.state), keep: this.keep() });
    if (!found) return undefined;
    const row = found as unknown as TaskRow;
    await this.record(sql, events, row.seq ?? 0, transitionEvents(fromRow(row), change, added, row.events ?? added), found.followed);
    return row;
  }

  /** FAILED with the reason for its state for every task `select` finds; each gets its own status message id. */
  private async failAll(
    sql: Sql,
    events: Recorded,
    select: string,
    params: Record<string, unknown>,
    reason: (state: TaskState, id: string) => string | undefined,
    at: number,
  ): Promise<A2aTask[]> {
    const found = (await sql(select, params)) as Array<{ id: string; state: TaskState; peer: string }>;
    if (found.length) await sql(PG_TASK_SQL.lockPeerCounts, { peers: [...new Set(found.map((f) => f.peer))] });
    const rows: TaskRow[] = [];
    for (const { id, state } of found) {
      const text = reason(state, id);
      if (text === undefined) continue;
      const change: TaskTransition = { state: 'TASK_STATE_FAILED', statusMessage: { messageId: randomUUID(), text } };
      const row = await this.applyTransition(sql, id, change, at, events);
      if (row) rows.push(row);
    }
    return rows.map(fromRow);
  }

  /** The cap for the trimming trigger, as the text of its setting (an unloaded config's "no cap yet" is none). */
  private keep(): string {
    const cap = this.retention.maxTerminalPerPeer;
    return Number.isFinite(cap) ? String(cap) : '';
  }
}
