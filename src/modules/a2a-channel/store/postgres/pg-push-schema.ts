import type { Migration } from '../../../../common/storage/postgres';

/**
 * The PostgreSQL layout of push notifications: the SQLite one (sqlite-push-schema.ts) in the task store's database and
 * migration scope, because the outbox rows are inserted in the task store's event transactions. Configs and
 * deliveries go with their task by a foreign key. `claimed_until` is the lease of the replica delivering a row:
 * while it lasts no other replica takes the row; a replica that dies leaves it to be claimed again when it ends.
 */
export const PUSH_MIGRATION: Migration = {
  version: 2,
  name: 'push configs and outbox',
  sql: `
CREATE TABLE push_configs (
  seq BIGSERIAL PRIMARY KEY,
  task_seq BIGINT NOT NULL REFERENCES tasks (seq) ON DELETE CASCADE,
  task_id TEXT NOT NULL,
  peer TEXT NOT NULL,
  id TEXT NOT NULL,
  url TEXT NOT NULL,
  token TEXT,
  auth_scheme TEXT,
  auth_credentials TEXT,
  wire TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  UNIQUE (task_seq, id)
);
CREATE TABLE push_outbox (
  seq BIGSERIAL PRIMARY KEY,
  config_seq BIGINT NOT NULL,
  task_seq BIGINT NOT NULL REFERENCES tasks (seq) ON DELETE CASCADE,
  n INTEGER NOT NULL,
  body TEXT NOT NULL,
  closes INTEGER NOT NULL,
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at BIGINT NOT NULL,
  claimed_until BIGINT,
  last_error TEXT,
  created_at BIGINT NOT NULL,
  done_at BIGINT
);
CREATE INDEX push_outbox_due ON push_outbox (state, next_at);
CREATE INDEX push_outbox_by_config ON push_outbox (config_seq, state, seq);
CREATE INDEX push_outbox_by_task ON push_outbox (task_seq);`,
};

/**
 * The push signing key, one for every replica of the database (pg-push-key.store.ts): a single row (`slot` 1),
 * whichever replica inserts first. `origin` says whether it was made here or imported from a replica's key file.
 */
export const PUSH_KEY_MIGRATION: Migration = {
  version: 4,
  name: 'push signing key',
  sql: `
CREATE TABLE push_signing_key (
  slot SMALLINT PRIMARY KEY CHECK (slot = 1),
  jwk TEXT NOT NULL,
  origin TEXT NOT NULL,
  created_at BIGINT NOT NULL
);`,
};

const DUE_COLUMNS = `o.seq, o.config_seq, o.n, o.body, o.closes, o.state, o.attempts, o.next_at, o.last_error, o.created_at, o.done_at,
  c.url, c.token, c.auth_scheme, c.auth_credentials, c.wire, c.peer, c.task_id, c.id AS config_id`;

/** Statements with `@name` parameters (common/storage/postgres.ts `positional`). */
export const PG_PUSH_SQL = {
  lockTask: 'SELECT seq FROM tasks WHERE id = @task_id FOR UPDATE',
  taskSeq: 'SELECT seq FROM tasks WHERE id = @task_id',
  upsert: `INSERT INTO push_configs (task_seq, task_id, peer, id, url, token, auth_scheme, auth_credentials, wire, created_at)
    VALUES (@task_seq, @task_id, @peer, @config_id, @url, @token, @auth_scheme, @auth_credentials, @wire, @created_at)
    ON CONFLICT (task_seq, id) DO UPDATE SET url = excluded.url, token = excluded.token, auth_scheme = excluded.auth_scheme,
      auth_credentials = excluded.auth_credentials, wire = excluded.wire
    RETURNING *`,
  get: 'SELECT * FROM push_configs WHERE task_seq = @task_seq AND id = @id',
  list: 'SELECT * FROM push_configs WHERE task_seq = @task_seq ORDER BY seq',
  count: 'SELECT COUNT(*) AS n FROM push_configs WHERE task_seq = @task_seq',
  remove: 'DELETE FROM push_configs WHERE task_seq = @task_seq AND id = @id RETURNING seq',
  dropPending: `DELETE FROM push_outbox WHERE config_seq = @config_seq AND state = 'pending'`,
  /**
   * Per config only its oldest pending delivery (claimed or not: a claimed one keeps its config's turn), when it is due
   * and no live lease holds it. Rows another transaction is claiming right now are skipped, not waited for; a row
   * claimed and committed meanwhile is checked again against the lease by the row lock, so no two callers get one row.
   */
  claimDue: `WITH due AS (
      SELECT o.seq FROM push_outbox o
       WHERE o.state = 'pending' AND o.next_at <= @now AND (o.claimed_until IS NULL OR o.claimed_until <= @now)
         AND NOT EXISTS (SELECT 1 FROM push_outbox p WHERE p.config_seq = o.config_seq AND p.state = 'pending' AND p.seq < o.seq)
       ORDER BY o.next_at, o.seq LIMIT @limit
       FOR UPDATE OF o SKIP LOCKED),
    claimed AS (UPDATE push_outbox o SET claimed_until = @until FROM due WHERE o.seq = due.seq RETURNING o.*)
    SELECT ${DUE_COLUMNS} FROM claimed o JOIN push_configs c ON c.seq = o.config_seq ORDER BY o.next_at, o.seq`,
  /** Only claims still running (a lapsed one may be another replica's by now), and only pending deliveries. */
  renewClaims: `UPDATE push_outbox SET claimed_until = @until
    WHERE seq = ANY(@seqs::bigint[]) AND state = 'pending' AND claimed_until > @now RETURNING seq`,
  /** Over the heads only: a config's later deliveries wait for its oldest, so their own time says nothing. */
  nextDue: `SELECT MIN(GREATEST(o.next_at, COALESCE(o.claimed_until, 0))) AS at FROM push_outbox o
    WHERE o.state = 'pending'
      AND NOT EXISTS (SELECT 1 FROM push_outbox p WHERE p.config_seq = o.config_seq AND p.state = 'pending' AND p.seq < o.seq)`,
  delivered: `UPDATE push_outbox SET state = 'delivered', attempts = attempts + 1, done_at = @at, last_error = NULL, claimed_until = NULL
    WHERE seq = @seq`,
  retry: `UPDATE push_outbox SET attempts = attempts + 1, next_at = @next_at, last_error = @error, claimed_until = NULL
    WHERE seq = @seq AND state = 'pending'`,
  failed: `UPDATE push_outbox SET state = 'failed', attempts = attempts + 1, done_at = @at, last_error = @error, claimed_until = NULL
    WHERE seq = @seq AND state = 'pending'`,
  listed: `SELECT o.seq, o.config_seq, o.task_seq, o.n, o.closes, o.state, o.attempts, o.next_at, o.last_error, o.created_at, o.done_at,
      c.url, c.peer, c.task_id, c.id AS config_id
     FROM push_outbox o JOIN push_configs c ON c.seq = o.config_seq
    WHERE (@state::text IS NULL OR o.state = @state::text) ORDER BY o.seq DESC LIMIT @limit`,
  counts: 'SELECT state, COUNT(*) AS n FROM push_outbox GROUP BY state',
  pruneDone: `DELETE FROM push_outbox WHERE state != 'pending' AND done_at <= @before RETURNING seq`,
} as const;

/**
 * A task's events and, in the same statement, their deliveries to every config of the task (none: an index probe),
 * queued in event order. `@events` is a JSON array of `{ n, body, closes }`. The task store runs it in the
 * transaction of the change that caused the events (one statement for a transition's artifact and status); the
 * inserted deliveries are returned.
 */
export const PG_RECORD_EVENTS = `WITH ev AS (
    SELECT * FROM jsonb_to_recordset(@events::jsonb) AS x(n INTEGER, body TEXT, closes BOOLEAN)
  ), event AS (
    INSERT INTO task_events (task_seq, n, body, closes) SELECT @task_seq, n, body, closes FROM ev)
  INSERT INTO push_outbox (config_seq, task_seq, n, body, closes, state, next_at, created_at)
  SELECT c.seq, c.task_seq, ev.n, ev.body, CASE WHEN ev.closes THEN 1 ELSE 0 END, 'pending', @now, @now
    FROM push_configs c CROSS JOIN ev WHERE c.task_seq = @task_seq ORDER BY ev.n, c.seq
  RETURNING seq`;
