import type { Migration } from '../../../../common/storage/postgres';
import { PUSH_KEY_MIGRATION, PUSH_MIGRATION } from './pg-push-schema';
import { KEEP_CAP_CONDITION, STATEMENT_COUNT_MIGRATION, TERMINAL_COUNT_MIGRATION } from './pg-task-counts-schema';
import { COLUMNS } from '../sqlite/sqlite-task-schema';

/**
 * The PostgreSQL layout of the task store: the SQLite one (sqlite-task-schema.ts) with the same two indexes — (peer, terminal,
 * seq) finds a peer's oldest finished tasks to trim, (peer, updated_at, seq) serves ListTasks in its own order — and the
 * same column names, so the page query (task-page-query.ts) and the row mapping are shared. `history` stays JSON
 * text, as in SQLite. Events go with their task by a foreign key. `owner` is the process that runs the task (its
 * replica id), `owner_dir` the state dir it holds (failUnsettled at the next start on that dir fails these), and
 * `owner_leased` says the owner keeps a heartbeat lease in the cluster's Redis: when that lease expires, another
 * replica fails the owner's unsettled tasks (docs/decisions.md#state-on-postgresql). Rows of version 1 have no
 * `owner_dir`; their `owner` is the state dir.
 */
export const TASK_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'tasks and task events',
    sql: `
CREATE TABLE tasks (
  seq BIGSERIAL PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  peer TEXT NOT NULL,
  context_id TEXT NOT NULL,
  agent_id TEXT,
  session_key TEXT,
  message_id TEXT NOT NULL,
  state TEXT NOT NULL,
  terminal BOOLEAN NOT NULL,
  status_message_id TEXT,
  status_text TEXT,
  artifact_id TEXT,
  artifact_text TEXT,
  run_id TEXT,
  history TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  events INTEGER NOT NULL DEFAULT 0,
  owner TEXT NOT NULL
);
CREATE INDEX tasks_by_peer ON tasks (peer, terminal, seq);
CREATE INDEX tasks_by_peer_recency ON tasks (peer, updated_at, seq);
CREATE TABLE task_events (
  task_seq BIGINT NOT NULL REFERENCES tasks (seq) ON DELETE CASCADE,
  n INTEGER NOT NULL,
  body TEXT NOT NULL,
  closes BOOLEAN NOT NULL,
  PRIMARY KEY (task_seq, n)
);`,
  },
  PUSH_MIGRATION,
  {
    version: 3,
    name: 'task owners with heartbeat leases',
    sql: `
ALTER TABLE tasks ADD COLUMN owner_dir TEXT;
ALTER TABLE tasks ADD COLUMN owner_leased BOOLEAN NOT NULL DEFAULT false;
CREATE INDEX tasks_unsettled_by_owner ON tasks (owner) WHERE NOT terminal;`,
  },
  PUSH_KEY_MIGRATION,
  TERMINAL_COUNT_MIGRATION,
  {
    version: 6,
    name: 'tasks a stream follows',
    // Set by a replica before it listens for the task's events from the others; until then no replica has a stream
    // of it that a publish could reach, and its writer publishes nothing (docs/decisions.md#task-events-across-replicas).
    sql: 'ALTER TABLE tasks ADD COLUMN followed BOOLEAN NOT NULL DEFAULT false;',
  },
  STATEMENT_COUNT_MIGRATION,
];

/** The migration scope of the task store in `schema_migrations`. */
export const TASK_MIGRATION_SCOPE = 'a2a-tasks';

export const PG_READ_COLUMNS = `${COLUMNS}, seq, events`;

/** Statements with `@name` parameters (common/storage/postgres.ts `positional`). */
export const PG_TASK_SQL = {
  insert: `INSERT INTO tasks (${COLUMNS}, terminal, owner, owner_dir, owner_leased) SELECT @id, @peer, @context_id, @agent_id, @session_key,
    @message_id, @state, @status_message_id, @status_text, @artifact_id, @artifact_text, @run_id, @history, @created_at, @updated_at,
    @terminal, @owner, @owner_dir, @owner_leased WHERE ${KEEP_CAP_CONDITION}`,
  /**
   * `insert` for many tasks at once (the group commit of pg-task.store.ts): `@rows` is a JSON array of the rows, keyed
   * by column. Inserted in peer order, so two replicas' batches take the peers' count locks in the same order.
   */
  insertMany: `INSERT INTO tasks (${COLUMNS}, terminal, owner, owner_dir, owner_leased)
    SELECT ${COLUMNS}, terminal, owner, owner_dir, owner_leased FROM jsonb_populate_recordset(NULL::tasks, @rows::jsonb)
    WHERE ${KEEP_CAP_CONDITION} ORDER BY peer`,
  get: `SELECT ${PG_READ_COLUMNS} FROM tasks WHERE id = @id`,
  transition: `UPDATE tasks SET state = @state, terminal = @terminal, status_message_id = @status_message_id,
      status_text = @status_text, artifact_id = COALESCE(@artifact_id, artifact_id), artifact_text = COALESCE(@artifact_text, artifact_text),
      run_id = COALESCE(@run_id, run_id), updated_at = @updated_at, events = events + @events_added,
      history = CASE WHEN @history_add::text IS NULL THEN history
        ELSE (COALESCE(history, '[]')::jsonb || jsonb_build_array(@history_add::jsonb))::text END
     WHERE id = @id AND NOT terminal AND ${KEEP_CAP_CONDITION} RETURNING ${PG_READ_COLUMNS}, followed`,
  appendArtifact: `UPDATE tasks SET artifact_id = @artifact_id,
      artifact_text = CASE WHEN @append::boolean THEN COALESCE(artifact_text, '') || @text::text ELSE @text::text END, events = events + 1
     WHERE id = @id AND NOT terminal RETURNING seq, events, context_id, followed`,
  follow: 'UPDATE tasks SET followed = true WHERE id = @id AND NOT followed',
  eventsAfter: `SELECT n, body, closes FROM task_events WHERE task_seq = (SELECT seq FROM tasks WHERE id = @id) AND n > @after ORDER BY n`,
  deleteOld: 'DELETE FROM tasks WHERE terminal AND updated_at <= @before',
  /** The peers `deleteOld` will touch: no row joins them later, a task finishing now is not that old. */
  peersOfOld: 'SELECT DISTINCT peer FROM tasks WHERE terminal AND updated_at <= @before',
  /**
   * The count rows of several peers locked in one order (made when missing), before a transaction that writes tasks of
   * several peers changes any: the triggers then take no lock of their own in it, so two such transactions wait for
   * each other instead of deadlocking, and a peer's commit-time trim never waits on rows such a transaction holds
   * while it waits for that peer's count.
   */
  lockPeerCounts: `INSERT INTO task_peer_counts AS c (peer, terminal) SELECT p, 0 FROM unnest(@peers::text[]) AS p ORDER BY p
    ON CONFLICT (peer) DO UPDATE SET terminal = c.terminal`,
  // Rows another writer holds are skipped: that writer is settling them.
  unsettled: `SELECT id, state, peer FROM tasks WHERE NOT terminal AND (owner_dir = @dir OR (owner_dir IS NULL AND owner = @dir))
    ORDER BY seq FOR UPDATE SKIP LOCKED`,
  /** The owners of unsettled tasks, and whether they hold a lease (the partial index of unsettled rows). */
  unsettledByOwner: `SELECT owner, bool_or(owner_leased) AS leased, COUNT(*)::int AS n FROM tasks WHERE NOT terminal
    GROUP BY owner ORDER BY owner`,
  /** Sweeps of one owner take turns: the second finds its rows terminal already, and writes nothing. */
  lockOwner: `SELECT pg_advisory_xact_lock(hashtext('clawgate.a2a.owner'), hashtext(@owner))`,
  ownedUnsettled: `SELECT id, state, peer FROM tasks WHERE NOT terminal AND owner = @owner AND owner_leased
    ORDER BY seq FOR UPDATE SKIP LOCKED`,
  idle: 'SELECT id, state, peer FROM tasks WHERE NOT terminal AND updated_at <= @before ORDER BY seq FOR UPDATE SKIP LOCKED',
} as const;
