import type { Migration } from '../../common/storage/postgres';

/** The migration scope of the exchange store in `schema_migrations`. */
export const EXCHANGE_MIGRATION_SCOPE = 'session-tools-exchanges';

/**
 * The SQLite store's two tables, shared by replicas: one row per exchange (the record as JSON text, rewritten at each
 * step, with its pair columns for the traffic) and one per run of it, removed with it. `owner` is the process that
 * runs the exchange (its replica id), `owner_dir` the state dir it holds (the next process on that dir marks what
 * it left running), `owner_leased` whether the owner keeps a heartbeat lease in the cluster's Redis (when it lapses,
 * another replica marks the owner's running exchanges: docs/decisions.md#sessions_send-exchanges-on-postgresql).
 */
export const EXCHANGE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'sessions_send exchanges',
    sql: `
CREATE TABLE exchanges (
  seq BIGSERIAL PRIMARY KEY,
  run_id TEXT NOT NULL UNIQUE,
  state TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  record TEXT NOT NULL,
  started_at BIGINT NOT NULL,
  from_agent TEXT NOT NULL,
  to_agent TEXT NOT NULL,
  owner TEXT NOT NULL,
  owner_dir TEXT NOT NULL,
  owner_leased BOOLEAN NOT NULL
);
CREATE INDEX exchanges_by_start ON exchanges (started_at, from_agent, to_agent);
CREATE INDEX exchanges_running ON exchanges (owner) WHERE state = 'running';
CREATE TABLE exchange_runs (
  run_id TEXT PRIMARY KEY,
  exchange_run_id TEXT NOT NULL REFERENCES exchanges (run_id) ON DELETE CASCADE
);
CREATE INDEX exchange_runs_by_exchange ON exchange_runs (exchange_run_id);`,
  },
];

export const PG_EXCHANGE_SQL = {
  /** New exchanges of all replicas take turns at the cut, so it leaves exactly `keep` (see PgExchangeStore). */
  lockCut: `SELECT pg_advisory_xact_lock(hashtext('clawgate.exchanges.cut'))`,
  /** Inserted, or its state and record replaced unless it was found interrupted; `inserted` tells which. */
  upsert: `INSERT INTO exchanges (run_id, state, updated_at, record, started_at, from_agent, to_agent, owner, owner_dir, owner_leased)
    VALUES (@run_id, @state, @updated_at, @record, @started_at, @from_agent, @to_agent, @owner, @owner_dir, @owner_leased)
    ON CONFLICT (run_id) DO UPDATE SET state = EXCLUDED.state, updated_at = EXCLUDED.updated_at, record = EXCLUDED.record
      WHERE exchanges.state <> 'interrupted'
    RETURNING (xmax = 0) AS inserted`,
  addRuns: `INSERT INTO exchange_runs (run_id, exchange_run_id) SELECT unnest(@run_ids::text[]), @run_id
    ON CONFLICT (run_id) DO NOTHING`,
  /** Everything older than the newest `keep` (their runs go by the foreign key). */
  cut: `DELETE FROM exchanges WHERE seq <= (SELECT seq FROM exchanges ORDER BY seq DESC OFFSET @keep LIMIT 1)`,
  byRun: `SELECT e.record FROM exchange_runs r JOIN exchanges e ON e.run_id = r.exchange_run_id WHERE r.run_id = @run_id`,
  /** Byte order of the names, as SQLite sorts them. */
  pairsSince: `SELECT from_agent, to_agent, COUNT(*)::int AS n FROM exchanges WHERE started_at >= @since
    GROUP BY from_agent, to_agent ORDER BY from_agent COLLATE "C", to_agent COLLATE "C"`,
  runningOfDir: `SELECT run_id, record FROM exchanges WHERE state = 'running' AND owner_dir = @dir FOR UPDATE`,
  runningByOwner: `SELECT owner, bool_or(owner_leased) AS leased, COUNT(*)::int AS n FROM exchanges WHERE state = 'running'
    GROUP BY owner ORDER BY owner`,
  /** Sweeps of one owner take turns: the second finds nothing running. */
  lockOwner: `SELECT pg_advisory_xact_lock(hashtext('clawgate.exchanges.owner'), hashtext(@owner))`,
  runningOfOwner: `SELECT run_id, record FROM exchanges WHERE state = 'running' AND owner = @owner AND owner_leased FOR UPDATE`,
  markInterrupted: `UPDATE exchanges SET state = 'interrupted', updated_at = @updated_at, record = @record
    WHERE run_id = @run_id AND state = 'running'`,
} as const;
