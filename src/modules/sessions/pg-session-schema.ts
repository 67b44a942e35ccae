import type { Migration } from '../../common/storage/postgres';

/**
 * The PostgreSQL layout of the session store: the SQLite one (session-database.ts) with the same indexes — the
 * recency ones serve the listing one index range per page, the partial label indexes cost nothing for the sessions
 * without a label, and the unique one keeps a label to one session per agent whichever replica writes it.
 *
 * Transcript lines are numbered per session (`n` from 1, the key with the session), from the session row's `lines`
 * counter, which the append increments in the same transaction: the row lock makes appends of one session take
 * turns across every connection and replica, so the numbers are gapless and in commit order. The counter is also the
 * transcript version memory indexes by.
 */
export const SESSION_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'sessions and transcript lines',
    sql: `
CREATE TABLE sessions (
  seq BIGSERIAL PRIMARY KEY,
  session_key TEXT NOT NULL UNIQUE,
  session_id TEXT NOT NULL UNIQUE,
  agent_id TEXT NOT NULL,
  label TEXT,
  spawned_by TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  delivery_context TEXT,
  lines INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX sessions_label ON sessions (agent_id, label) WHERE label IS NOT NULL;
CREATE INDEX sessions_label_any ON sessions (label) WHERE label IS NOT NULL;
CREATE INDEX sessions_recent ON sessions (updated_at, seq);
CREATE INDEX sessions_recent_by_agent ON sessions (agent_id, updated_at, seq);
CREATE TABLE transcript_lines (
  session_seq BIGINT NOT NULL REFERENCES sessions (seq),
  n INTEGER NOT NULL,
  role TEXT NOT NULL,
  line TEXT NOT NULL,
  PRIMARY KEY (session_seq, n)
);`,
  },
];

/** The migration scope of the session store in `schema_migrations`. */
export const SESSION_MIGRATION_SCOPE = 'sessions';

/** The unique index a concurrent label claim (or a creation racing one) trips over. */
export const LABEL_INDEX = 'sessions_label';

export const PG_SESSION_COLUMNS = 'seq, session_key, session_id, agent_id, label, spawned_by, created_at, updated_at, delivery_context';

/** The append notice of pg-session-notices.ts, built from the row the statement wrote (its session id included). */
const APPEND_NOTICE_SQL = `pg_notify(@channel, json_build_object('origin', @origin::text, 'agentId', s.agent_id,
  'sessionKey', s.session_key, 'sessionId', s.session_id)::text) IS NOT NULL AS notified`;

/** Statements with `@name` parameters (common/storage/postgres.ts `positional`). */
export const PG_SESSION_SQL = {
  byKey: `SELECT ${PG_SESSION_COLUMNS} FROM sessions WHERE session_key = @key`,
  /** Locks the row: the rest of the transaction sees it as no other writer can change it. */
  byKeyForUpdate: `SELECT ${PG_SESSION_COLUMNS} FROM sessions WHERE session_key = @key FOR UPDATE`,
  /** A session another writer created first is left alone (no row returned): the caller then reads and locks it. */
  insert: `INSERT INTO sessions (session_key, session_id, agent_id, label, spawned_by, created_at, updated_at, delivery_context, lines)
    VALUES (@session_key, @session_id, @agent_id, @label, @spawned_by, @created_at, @updated_at, @delivery_context, @lines)
    ON CONFLICT (session_key) DO NOTHING RETURNING ${PG_SESSION_COLUMNS}`,
  labelHolder: 'SELECT session_key FROM sessions WHERE agent_id = @agent AND label = @label',
  setLabel: 'UPDATE sessions SET label = @label WHERE seq = @seq',
  setDeliveryContext: 'UPDATE sessions SET delivery_context = @dc WHERE seq = @seq',
  /** The next line number of the session, taken under its row lock; `updatedAt` never goes back. */
  nextLine: `UPDATE sessions SET lines = lines + 1, updated_at = GREATEST(updated_at, @at) WHERE session_key = @key
    RETURNING ${PG_SESSION_COLUMNS}, lines`,
  insertLine: 'INSERT INTO transcript_lines (session_seq, n, role, line) VALUES (@seq, @n, @role, @line)',
  /**
   * A line of a session this store has seen, as one statement (one round trip, its own transaction): the counter
   * taken under the row lock as in `nextLine`, the line stored under it, and the append notice sent at the commit.
   * No row when the session is missing.
   */
  appendToSession: `WITH s AS (
      UPDATE sessions SET lines = lines + 1, updated_at = GREATEST(updated_at, @at),
        delivery_context = CASE WHEN @set_dc THEN @delivery_context ELSE delivery_context END
      WHERE session_key = @session_key RETURNING ${PG_SESSION_COLUMNS}, lines
    ), line AS (INSERT INTO transcript_lines (session_seq, n, role, line) SELECT seq, lines, @role, @line FROM s)
    SELECT s.*, ${APPEND_NOTICE_SQL} FROM s`,
  /**
   * The same with the session created when missing (no label asked for: a label claim needs its check, so it takes
   * the transaction of appendPgLine). Two replicas creating one key at once make one row: ON CONFLICT waits for the
   * first and numbers the second's line after the first's.
   */
  createAndAppend: `WITH s AS (
      INSERT INTO sessions (session_key, session_id, agent_id, label, spawned_by, created_at, updated_at, delivery_context, lines)
      VALUES (@session_key, @session_id, @agent_id, NULL, @spawned_by, @at, @at, @delivery_context, 1)
      ON CONFLICT (session_key) DO UPDATE SET lines = sessions.lines + 1, updated_at = GREATEST(sessions.updated_at, @at),
        delivery_context = CASE WHEN @set_dc THEN EXCLUDED.delivery_context ELSE sessions.delivery_context END
      RETURNING ${PG_SESSION_COLUMNS}, lines
    ), line AS (INSERT INTO transcript_lines (session_seq, n, role, line) SELECT seq, lines, @role, @line FROM s)
    SELECT s.*, ${APPEND_NOTICE_SQL} FROM s`,
  /**
   * `createAndAppend` for many sessions at once (one statement, one transaction: the group commit of
   * pg-session.store.ts), each item of `@batch` a line of a different session with its `i`. Rows are inserted in key
   * order, so two replicas' batches lock the sessions they share in the same order. A delivery context given
   * replaces the stored one (`set_dc` items carry one; the others carry NULL and keep it).
   */
  createAndAppendMany: `WITH input AS (
      SELECT * FROM jsonb_to_recordset(@batch::jsonb) AS x(i INTEGER, session_key TEXT, session_id TEXT, agent_id TEXT,
        spawned_by TEXT, at BIGINT, delivery_context TEXT, role TEXT, line TEXT)
    ), s AS (
      INSERT INTO sessions (session_key, session_id, agent_id, label, spawned_by, created_at, updated_at, delivery_context, lines)
      SELECT session_key, session_id, agent_id, NULL, spawned_by, at, at, delivery_context, 1 FROM input ORDER BY session_key
      ON CONFLICT (session_key) DO UPDATE SET lines = sessions.lines + 1, updated_at = GREATEST(sessions.updated_at, EXCLUDED.updated_at),
        delivery_context = COALESCE(EXCLUDED.delivery_context, sessions.delivery_context)
      RETURNING ${PG_SESSION_COLUMNS}, lines
    ), line AS (
      INSERT INTO transcript_lines (session_seq, n, role, line) SELECT s.seq, s.lines, input.role, input.line FROM s JOIN input USING (session_key)
    )
    SELECT s.*, input.i, ${APPEND_NOTICE_SQL} FROM s JOIN input USING (session_key)`,
  tail: 'SELECT n, line FROM transcript_lines WHERE session_seq = @seq ORDER BY n DESC LIMIT @limit',
  tailWithoutTools: `SELECT n, line FROM transcript_lines WHERE session_seq = @seq AND role <> 'tool' ORDER BY n DESC LIMIT @limit`,
  linesAfter: 'SELECT n, line FROM transcript_lines WHERE session_seq = @seq AND n > @after ORDER BY n LIMIT @limit',
  versionsOfAgent: 'SELECT session_key, session_id, updated_at, lines FROM sessions WHERE agent_id = @agent',
  versionOfSession: 'SELECT session_key, session_id, updated_at, lines FROM sessions WHERE session_id = @id AND agent_id = @agent',
} as const;
