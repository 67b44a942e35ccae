import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { GroupCommit } from '../../common/storage/group-commit';
import { openSqlite, SqliteDatabase, SqliteStatement, useDurableStoreSettings } from '../../common/storage/sqlite';
import { ExchangeRecord, interrupted, pairOf, runIdsOf } from './exchange-record';
import type { AgentPairCount, ExchangeStore } from './exchange-store.port';

/** Where the store lives inside the state dir. */
export function exchangeDatabasePath(stateDir: string): string {
  return path.join(stateDir, 'exchanges.sqlite');
}

// One row per exchange (the record as JSON, rewritten at each step) and one per run of it, so a lookup by the
// id of any of its runs — round one, a ping-pong turn, the announce — is one index seek.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS exchanges (
  seq INTEGER PRIMARY KEY,
  run_id TEXT NOT NULL UNIQUE,
  state TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  record TEXT NOT NULL,
  started_at INTEGER,
  from_agent TEXT,
  to_agent TEXT
);
CREATE INDEX IF NOT EXISTS exchanges_running ON exchanges (state) WHERE state = 'running';
CREATE TABLE IF NOT EXISTS exchange_runs (
  run_id TEXT PRIMARY KEY,
  exchange_run_id TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS exchange_runs_by_exchange ON exchange_runs (exchange_run_id);
`;

/*
 * Who talked to whom and when, as columns (a database of an earlier version gets them, filled from the records):
 * the traffic of a time window is one range read of this covering index, never a walk over the records.
 */
const PAIR_COLUMNS = ['started_at', 'from_agent', 'to_agent'] as const;
const PAIR_INDEX = `CREATE INDEX IF NOT EXISTS exchanges_by_start ON exchanges (started_at, from_agent, to_agent);`;

interface Connection {
  db: SqliteDatabase;
  seqOf: SqliteStatement;
  insert: SqliteStatement;
  update: SqliteStatement;
  addRun: SqliteStatement;
  byRun: SqliteStatement;
  pruneRuns: SqliteStatement;
  prune: SqliteStatement;
  pairsSince: SqliteStatement;
}

/**
 * The record of sessions_send exchanges in the state dir: one SQLite file in WAL mode, written through a group commit
 * (a step's write shares its commit with whatever else was written in the same event-loop turn), at most
 * `keep()` exchanges, the oldest forgotten first. Created by the first write, so a gateway whose agents never
 * message each other gets no file. An exchange still `running` when the store is opened belonged to a process
 * that stopped before it ended: it is marked `interrupted` before anything else reads or writes.
 */
export class SqliteExchangeStore implements ExchangeStore {
  private conn?: Connection;
  private closed = false;
  private readonly commits = new GroupCommit(() => this.connection().db);

  constructor(
    private readonly file: string,
    /** How many exchanges to keep, read at each new exchange (a config reload applies to the next one). */
    private readonly keep: () => number,
    private readonly onInterrupted: (count: number) => void = () => undefined,
  ) {}

  /**
   * Stores the exchange as `current()` returns it when the commit runs: several changes made before the commit
   * cost one write, and the last state always wins.
   */
  save(current: () => ExchangeRecord): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the exchange store is closed'));
    return this.commits.run(() => this.write(this.connection(), current()));
  }

  /** The stored exchange that run `runId` belongs to. */
  async find(runId: string): Promise<ExchangeRecord | undefined> {
    const conn = this.connection(false);
    const row = conn?.byRun.get(runId) as { record: string } | undefined;
    return row && (JSON.parse(row.record) as ExchangeRecord);
  }

  /**
   * Exchanges started at or after `since` (epoch ms), counted per requester and target agent. What is queued
   * is committed first, so an exchange already saved is counted.
   */
  async pairCounts(since: number): Promise<AgentPairCount[]> {
    this.commits.flush();
    const conn = this.connection(false);
    if (!conn) return [];
    return (conn.pairsSince.all(since) as Array<{ from_agent: string; to_agent: string; n: number }>).map((r) => ({
      from: r.from_agent,
      to: r.to_agent,
      count: r.n,
    }));
  }

  /** Commits what is pending, then closes; later writes fail. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.commits.flush();
    this.closed = true;
    this.conn?.db.close();
    this.conn = undefined;
  }

  private write(c: Connection, record: ExchangeRecord): void {
    const row = { run_id: record.runId, state: record.state, updated_at: Date.parse(record.updatedAt), record: JSON.stringify(record) };
    if (c.seqOf.get(record.runId)) {
      c.update.run(row);
    } else {
      const seq = Number(c.insert.run({ ...row, ...pairOf(record) }).lastInsertRowid);
      // Rows are numbered in insertion order without gaps above the last cut, so this leaves exactly `keep`.
      const cut = seq - Math.max(1, this.keep());
      if (cut > 0) {
        c.pruneRuns.run(cut);
        c.prune.run(cut);
      }
    }
    for (const runId of runIdsOf(record)) c.addRun.run(runId, record.runId);
  }

  /** The connection, opened on first use. Without `create`, undefined while no database file exists yet. */
  private connection(create: false): Connection | undefined;
  private connection(create?: true): Connection;
  private connection(create = true): Connection | undefined {
    if (this.closed) throw new Error('the exchange store is closed');
    if (this.conn) return this.conn;
    if (!create && !existsSync(this.file)) return undefined;
    const db = openSqlite(this.file);
    try {
      useDurableStoreSettings(db);
      db.exec(SCHEMA);
      addPairColumns(db);
      this.conn = {
        db,
        seqOf: db.prepare('SELECT seq FROM exchanges WHERE run_id = ?'),
        insert: db.prepare(
          `INSERT INTO exchanges (run_id, state, updated_at, record, started_at, from_agent, to_agent)
           VALUES (@run_id, @state, @updated_at, @record, @started_at, @from_agent, @to_agent)`,
        ),
        // An interrupted exchange's process was found gone: nothing writes over that verdict.
        update: db.prepare(
          "UPDATE exchanges SET state = @state, updated_at = @updated_at, record = @record WHERE run_id = @run_id AND state <> 'interrupted'",
        ),
        addRun: db.prepare('INSERT OR IGNORE INTO exchange_runs (run_id, exchange_run_id) VALUES (?, ?)'),
        byRun: db.prepare('SELECT e.record FROM exchange_runs r JOIN exchanges e ON e.run_id = r.exchange_run_id WHERE r.run_id = ?'),
        pruneRuns: db.prepare('DELETE FROM exchange_runs WHERE exchange_run_id IN (SELECT run_id FROM exchanges WHERE seq <= ?)'),
        prune: db.prepare('DELETE FROM exchanges WHERE seq <= ?'),
        pairsSince: db.prepare(
          'SELECT from_agent, to_agent, COUNT(*) AS n FROM exchanges WHERE started_at >= ? GROUP BY from_agent, to_agent ORDER BY from_agent, to_agent',
        ),
      };
      this.markInterrupted(this.conn);
    } catch (err) {
      this.conn = undefined;
      db.close();
      throw err;
    }
    return this.conn;
  }

  private markInterrupted(c: Connection): void {
    const running = c.db.prepare("SELECT record FROM exchanges WHERE state = 'running'").all() as Array<{ record: string }>;
    if (!running.length) return;
    const at = new Date().toISOString();
    c.db.transaction(() => {
      for (const { record } of running) this.write(c, interrupted(JSON.parse(record) as ExchangeRecord, at));
    })();
    this.onInterrupted(running.length);
  }
}

/** Adds the pair columns and their index to a database an earlier version created, filled from its records. */
function addPairColumns(db: SqliteDatabase): void {
  const columns = new Set(
    (db.prepare('SELECT name FROM pragma_table_info(?)').all('exchanges') as Array<{ name: string }>).map((c) => c.name),
  );
  const missing = PAIR_COLUMNS.filter((name) => !columns.has(name));
  if (missing.length) {
    db.transaction(() => {
      for (const name of missing) db.exec(`ALTER TABLE exchanges ADD COLUMN ${name} ${name === 'started_at' ? 'INTEGER' : 'TEXT'}`);
      const fill = db.prepare(
        'UPDATE exchanges SET started_at = @started_at, from_agent = @from_agent, to_agent = @to_agent WHERE seq = @seq',
      );
      for (const row of db.prepare('SELECT seq, record FROM exchanges').all() as Array<{ seq: number; record: string }>) {
        fill.run({ seq: row.seq, ...pairOf(JSON.parse(row.record) as ExchangeRecord) });
      }
    })();
  }
  db.exec(PAIR_INDEX);
}
