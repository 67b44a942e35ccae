import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { isTerminalState, type TaskState } from '../../../../common/a2a-protocol';
import {
  openSqlite,
  SqliteDatabase,
  SqliteStatement,
  useDurableStoreSettings,
  REQUEST_PATH_CACHE_MIB,
} from '../../../../common/storage/sqlite';
import { GroupCommit } from '../../../../common/storage/group-commit';
import { keysetPage, sqlFilter, type SqlFilter } from '../../../../common/storage/sql-filter';
import { WalCheckpointer } from '../../../../common/storage/wal-checkpointer';
import { A2aTask, TaskTransition } from '../../model/task';
import { ArtifactChunk, artifactUpdateBody, TaskEvent } from '../../model/task-events';
import { taskPageSql } from './task-page-query';
import { transitionEvents, transitionWrite } from '../task-transition-write';
import {
  fromRow,
  insertValues,
  migrateSchema,
  prepareStatements,
  READ_COLUMNS,
  SCHEMA,
  StatementName,
  TaskEventRow,
  TaskRow,
} from './sqlite-task-schema';
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

/** Where the store lives inside the state dir. */
export function taskDatabasePath(stateDir: string): string {
  return path.join(stateDir, 'a2a', 'tasks.sqlite');
}

interface Connection {
  db: SqliteDatabase;
  statements: Record<StatementName, SqliteStatement>;
}

/**
 * The durable TaskStore: one SQLite file in WAL mode. A write's promise settles after its commit, so a killed
 * process loses nothing that was acknowledged (synchronous=NORMAL: a crash of the process is safe; only a
 * power loss can drop the last commits). Writes go through a group commit: concurrent tasks share one WAL
 * commit per event-loop turn, which is what a commit costs on a real disk. Reads are synchronous queries.
 *
 * The file is created by the first write, not at boot: a gateway that never enables A2A gets no database,
 * and reads on a store that was never written answer "nothing" without creating one.
 */
export class A2aTaskStore implements TaskStore {
  private conn?: Connection;
  private checkpointer?: WalCheckpointer;
  private closed = false;
  private readonly commits = new GroupCommit(
    () => this.connection().db,
    () => this.pruneOverCap(),
    // A rolled-back batch takes its count changes with it: count again from the rows.
    () => {
      this.forgetCounts();
      this.overCap.clear();
    },
  );
  /**
   * Terminal tasks per peer as stored: counted once per peer, then kept current by every write, so the cap
   * costs nothing until a peer reaches it. Forgotten whenever a write fails (its changes were rolled back).
   */
  private readonly terminalCounts = new Map<string, number>();
  /**
   * Tasks per peer as stored, in any state: ListTasks' `totalSize` without a filter. Counted once per peer
   * (an index-only COUNT, which at 100,000 tasks costs more than the whole page), then kept by every write;
   * forgotten with `terminalCounts`.
   */
  private readonly taskCounts = new Map<string, number>();
  private readonly logger = new Logger('a2a');
  /** Peers whose count went over the cap in the batch being committed. */
  private readonly overCap = new Set<string>();
  /** A write of the current run queued push deliveries. */
  private pushQueued = false;

  constructor(
    private readonly file: string,
    private readonly retention: RetentionPolicy,
    private readonly hooks: TaskStoreHooks = {},
  ) {}

  insert(task: A2aTask): Promise<void> {
    return this.write((c) => {
      c.statements.insert.run(insertValues(task));
      this.addTasks(task.peer, 1);
      if (isTerminalState(task.state)) this.addTerminal(c, task.peer, 1);
      this.hooks.onState?.(task.state);
    });
  }

  async get(id: string): Promise<A2aTask | undefined> {
    const row = this.connection(false)?.statements.get.get(id) as TaskRow | undefined;
    return row && fromRow(row);
  }

  transition(id: string, change: TaskTransition, at: number): Promise<A2aTask | undefined> {
    return this.write((c, events) => {
      const row = this.applyTransition(c, id, change, at, events);
      if (row && isTerminalState(change.state)) this.addTerminal(c, row.peer, 1);
      return row && fromRow(row);
    });
  }

  appendArtifact(id: string, chunk: ArtifactChunk): Promise<boolean> {
    return this.write((c, events) => {
      const row = c.statements.appendArtifact.get({
        id,
        artifact_id: chunk.artifactId,
        text: chunk.text,
        append: chunk.append ? 1 : 0,
      }) as { seq: number; events: number; context_id: string } | undefined;
      if (!row) return false;
      this.record(c, events, row.seq, {
        taskId: id,
        n: row.events,
        body: artifactUpdateBody({ id, contextId: row.context_id }, chunk),
        closes: false,
      });
      return true;
    });
  }

  async eventsAfter(id: string, after: number): Promise<TaskEvent[]> {
    const rows = (this.connection(false)?.statements.eventsAfter.all(id, after) ?? []) as TaskEventRow[];
    return rows.map((row) => ({ taskId: id, n: row.n, body: row.body, closes: row.closes === 1 }));
  }

  async list(filter: TaskListFilter): Promise<A2aTask[]> {
    const conn = this.connection(false);
    if (!conn) return [];
    const where = sqlFilter([
      filter.peer !== undefined && ['peer = @peer', { peer: filter.peer }],
      filter.state !== undefined && ['state = @state', { state: filter.state }],
      filter.contextId !== undefined && ['context_id = @contextId', { contextId: filter.contextId }],
    ]);
    const sql = `SELECT ${READ_COLUMNS} FROM tasks WHERE ${where.sql} ORDER BY seq DESC LIMIT @limit`;
    return (conn.db.prepare(sql).all({ ...where.params, limit: filter.limit }) as TaskRow[]).map(fromRow);
  }

  async countsSince(peers: readonly string[], since: number): Promise<PeerAgentCount[]> {
    const conn = this.connection(false);
    if (!conn) return [];
    return peers.flatMap((peer) =>
      (conn.statements.countsSince.all({ peer, since }) as Array<{ agent_id: string | null; n: number }>).map((r) => ({
        peer,
        agentId: r.agent_id,
        count: r.n,
      })),
    );
  }

  async page(query: TaskPageQuery): Promise<TaskPage> {
    const conn = this.connection(false);
    if (!conn) return { tasks: [], total: 0 };
    const sql = taskPageSql(query);
    const total = sql.filtered ? this.count(conn, sql.count) : this.taskCountOf(conn, query.peer, sql.count);
    const rows = conn.db.prepare(sql.page.sql).all(sql.page.params) as Array<TaskRow & { seq: number }>;
    const page = keysetPage(rows, query.limit);
    return {
      tasks: page.rows.map(fromRow),
      total,
      ...(page.last ? { next: { updatedAt: page.last.updated_at, seq: page.last.seq } } : {}),
    };
  }

  async failUnsettled(reason: (state: TaskState, id: string) => string | undefined, at: number): Promise<number> {
    if (!this.connection(false)) return 0;
    return (await this.write((c, events) => this.failAll(c, events, c.statements.unsettled, [], reason, at))).length;
  }

  async sweep(now: number, expiredReason: string): Promise<SweepOutcome> {
    if (!this.connection(false)) return { expired: [], deleted: 0 };
    return this.write((c, events) => {
      const expired = this.failAll(c, events, c.statements.idle, [now - this.retention.idleExpiryMs], () => expiredReason, now);
      const deleted = c.statements.deleteOld.run(now - this.retention.terminalRetentionMs).changes;
      if (deleted) this.forgetCounts();
      return { expired, deleted };
    });
  }

  /**
   * A write of another table of this database (push configs and deliveries, push-store.ts), in the same group commit
   * as the task writes; `queuesPush`: it queued deliveries. Resolves after the commit.
   */
  transact<T>(fn: (db: SqliteDatabase) => T, queuesPush = false): Promise<T> {
    return this.write((c) => {
      if (queuesPush) this.pushQueued = true;
      return fn(c.db);
    });
  }

  /** A read of another table of this database; `empty` when no database exists yet. */
  query<T>(fn: (db: SqliteDatabase) => T, empty: T): T {
    const conn = this.connection(false);
    return conn ? fn(conn.db) : empty;
  }

  /** The task's rowid (push configs refer to it), or undefined when the task has no row. */
  taskSeq(id: string): number | undefined {
    const row = this.connection(false)?.statements.get.get(id) as TaskRow | undefined;
    return row?.seq;
  }

  /** Commits what is pending, then closes; later calls fail. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.commits.flush();
    this.closed = true;
    await this.checkpointer?.stop();
    this.conn?.db.close();
    this.conn = undefined;
  }

  /** The connection, opened on first use. Without `create`, undefined while no database file exists yet. */
  private connection(create: false): Connection | undefined;
  private connection(create?: true): Connection;
  private connection(create = true): Connection | undefined {
    if (this.closed) throw new Error('the A2A task store is closed');
    if (this.conn) return this.conn;
    if (!create && !existsSync(this.file)) return undefined;
    const db = openSqlite(this.file);
    try {
      useDurableStoreSettings(db, { cacheMiB: REQUEST_PATH_CACHE_MIB });
      db.exec(SCHEMA);
      migrateSchema(db);
      this.conn = { db, statements: prepareStatements(db) };
      this.checkpointer = new WalCheckpointer(db, this.file, (message) => this.onCheckpointError(message));
    } catch (err) {
      db.close();
      throw err;
    }
    return this.conn;
  }

  private onCheckpointError(message: string): void {
    this.logger.warn(`checkpoint of ${this.file} failed: ${message}`);
  }

  /** One write of the next group commit; the events it records are published once that commit is on disk. */
  private write<T>(fn: (c: Connection, events: TaskEvent[]) => T): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the A2A task store is closed'));
    const events: TaskEvent[] = [];
    let queued = false;
    return this.commits
      .run(() => {
        // A batch that is rolled back runs its writes again: only the last run's events are real.
        events.length = 0;
        this.pushQueued = false;
        const result = fn(this.connection(), events);
        queued = this.pushQueued;
        return result;
      })
      .then(
        (result) => {
          if (events.length) this.hooks.onEvents?.(events);
          if (queued) this.hooks.onPushQueued?.();
          return result;
        },
        (err: unknown) => {
          this.forgetCounts();
          throw err;
        },
      );
  }

  /** Stores an event and, in the same transaction, queues it for the task's push configs (docs/a2a-push.md). */
  private record(c: Connection, events: TaskEvent[], taskSeq: number, event: TaskEvent): void {
    const closes = event.closes ? 1 : 0;
    c.statements.insertEvent.run(taskSeq, event.n, event.body, closes);
    const queued = c.statements.enqueuePush.run({ task_seq: taskSeq, n: event.n, body: event.body, closes, now: Date.now() }).changes;
    if (queued) this.pushQueued = true;
    events.push(event);
  }

  /** The change, and its events: the artifact (a whole reply, when the change carries one), then the status. */
  private applyTransition(c: Connection, id: string, change: TaskTransition, at: number, events: TaskEvent[]): TaskRow | undefined {
    const { added, params } = transitionWrite(id, change, at);
    const row = c.statements.transition.get({ ...params, terminal: isTerminalState(change.state) ? 1 : 0 }) as TaskRow | undefined;
    if (!row) return undefined;
    this.hooks.onState?.(change.state);
    for (const event of transitionEvents(fromRow(row), change, added, row.events ?? added)) this.record(c, events, row.seq ?? 0, event);
    return row;
  }

  /** FAILED with the reason for its state for every task `select` finds; each gets its own status message id. */
  private failAll(
    c: Connection,
    events: TaskEvent[],
    select: SqliteStatement,
    params: unknown[],
    reason: (state: TaskState, id: string) => string | undefined,
    at: number,
  ): A2aTask[] {
    const found = select.all(...params) as Array<{ id: string; state: TaskState }>;
    const rows = found.flatMap(({ id, state }) => {
      const text = reason(state, id);
      if (text === undefined) return [];
      const failed: TaskTransition = { state: 'TASK_STATE_FAILED', statusMessage: { messageId: randomUUID(), text } };
      return this.applyTransition(c, id, failed, at, events) ?? [];
    });
    const perPeer = new Map<string, number>();
    for (const row of rows) perPeer.set(row.peer, (perPeer.get(row.peer) ?? 0) + 1);
    for (const [peer, added] of perPeer) this.addTerminal(c, peer, added);
    return rows.map(fromRow);
  }

  private count(conn: Connection, count: SqlFilter): number {
    return (conn.db.prepare(count.sql).get(count.params) as { n: number }).n;
  }

  /** All of `peer`'s tasks: known, or counted with `count` (the unfiltered count of the page) and then kept. */
  private taskCountOf(conn: Connection, peer: string, count: SqlFilter): number {
    const known = this.taskCounts.get(peer);
    if (known !== undefined) return known;
    const counted = this.count(conn, count);
    this.taskCounts.set(peer, counted);
    return counted;
  }

  /** Keeps a known task count current; an unknown one is counted when it is next needed. */
  private addTasks(peer: string, added: number): void {
    const known = this.taskCounts.get(peer);
    if (known !== undefined) this.taskCounts.set(peer, known + added);
  }

  private forgetCounts(): void {
    this.terminalCounts.clear();
    this.taskCounts.clear();
  }

  /** Records `added` new terminal tasks of `peer`; one over the cap is trimmed before the batch commits. */
  private addTerminal(c: Connection, peer: string, added: number): void {
    const known = this.terminalCounts.get(peer);
    // A fresh count already includes the rows just written in this transaction.
    const count = known === undefined ? (c.statements.countTerminal.get(peer) as { n: number }).n : known + added;
    this.terminalCounts.set(peer, count);
    if (count > this.retention.maxTerminalPerPeer) this.overCap.add(peer);
  }

  /**
   * Drops each over-cap peer's oldest terminal tasks, once per commit rather than once per write: a peer at
   * the cap settles a task per write, and one DELETE for the whole batch costs a fraction of one per task.
   * Runs inside the batch's transaction, so no read ever sees more than the cap.
   */
  private pruneOverCap(): void {
    if (!this.overCap.size) return;
    const keep = this.retention.maxTerminalPerPeer;
    try {
      const { statements } = this.connection();
      for (const peer of this.overCap) {
        // The count is exact inside the batch (counted from the rows, then kept by every write of it), so the
        // oldest `excess` go and exactly `keep` stay.
        const excess = (this.terminalCounts.get(peer) ?? keep) - keep;
        if (excess <= 0) continue;
        const pruned = statements.pruneOldest.run({ peer, excess }).changes;
        this.terminalCounts.set(peer, keep);
        this.addTasks(peer, -pruned);
      }
    } finally {
      this.overCap.clear();
    }
  }
}
