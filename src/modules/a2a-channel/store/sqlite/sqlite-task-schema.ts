import { isTerminalState, type TaskState } from '../../../../common/a2a-protocol';
import type { SqliteDatabase, SqliteStatement } from '../../../../common/storage/sqlite';
import type { A2aTask, TaskMessage } from '../../model/task';
import { PUSH_SCHEMA, prepareEnqueue } from './sqlite-push-schema';

/**
 * The SQLite layout of the task store: one row per task. Two indexes, and every write pays for both:
 * `tasks_by_peer` (peer, terminal, seq) counts and trims a peer's finished tasks; `tasks_by_peer_recency`
 * (peer, updated_at) serves ListTasks in its own order (task-page-query.ts). Both are created with IF NOT
 * EXISTS, so a database from an older version gets the second one when it is opened.
 */

export type StatementName =
  | 'insert'
  | 'get'
  | 'transition'
  | 'appendArtifact'
  | 'insertEvent'
  | 'enqueuePush'
  | 'eventsAfter'
  | 'countTerminal'
  | 'pruneOldest'
  | 'deleteOld'
  | 'unsettled'
  | 'idle'
  | 'countsSince';

export interface TaskRow {
  id: string;
  peer: string;
  context_id: string;
  agent_id: string | null;
  session_key: string | null;
  message_id: string;
  state: TaskState;
  status_message_id: string | null;
  status_text: string | null;
  artifact_id: string | null;
  artifact_text: string | null;
  run_id: string | null;
  /** JSON array of TaskMessage; null in rows written before tasks kept a history. */
  history: string | null;
  created_at: number;
  updated_at: number;
  /** The number of the task's last event (task-events.ts); in every row read, not written by an insert. */
  events?: number;
  seq?: number;
}

export interface TaskEventRow {
  n: number;
  body: string;
  closes: number;
}

/** The index ListTasks reads (named so the query-plan spec can hold the page query to it). */
export const RECENCY_INDEX = 'tasks_by_peer_recency';

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS tasks (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  peer TEXT NOT NULL,
  context_id TEXT NOT NULL,
  agent_id TEXT,
  session_key TEXT,
  message_id TEXT NOT NULL,
  state TEXT NOT NULL,
  terminal INTEGER NOT NULL,
  status_message_id TEXT,
  status_text TEXT,
  artifact_id TEXT,
  artifact_text TEXT,
  run_id TEXT,
  history TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  events INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS tasks_by_peer ON tasks (peer, terminal, seq);
-- seq is the rowid, the last column of every index entry: this index is in (peer, updated_at, seq) order
-- without storing seq twice, so a page of one peer is one range read newest first, never a sort.
CREATE INDEX IF NOT EXISTS ${RECENCY_INDEX} ON tasks (peer, updated_at);
-- A task's events (task-events.ts), keyed by the task's seq: one range read replays a task, and they go with it.
CREATE TABLE IF NOT EXISTS task_events (
  task_seq INTEGER NOT NULL,
  n INTEGER NOT NULL,
  body TEXT NOT NULL,
  closes INTEGER NOT NULL,
  PRIMARY KEY (task_seq, n)
) WITHOUT ROWID;
`;

/**
 * Retention, trims and restarts delete tasks in several places; the trigger makes every one of them take the task's
 * events along (a task without events pays one index probe). Created after migrateSchema, which it depends on.
 */
const EVENTS_FOLLOW_TASKS = `
CREATE TRIGGER IF NOT EXISTS task_events_follow_task AFTER DELETE ON tasks
BEGIN DELETE FROM task_events WHERE task_seq = old.seq; END;
`;

export const COLUMNS =
  'id, peer, context_id, agent_id, session_key, message_id, state, status_message_id, status_text, artifact_id, artifact_text, run_id, history, created_at, updated_at';
/** What a read returns: the written columns, the position and the event count. */
export const READ_COLUMNS = `${COLUMNS}, seq, events`;

/** Adds what later versions added to the table (`history`, `events`) to a database an earlier version created. */
export function migrateSchema(db: SqliteDatabase): void {
  const columns = db.prepare('SELECT name FROM pragma_table_info(?)').all('tasks') as Array<{ name: string }>;
  if (!columns.some((c) => c.name === 'history')) db.exec('ALTER TABLE tasks ADD COLUMN history TEXT');
  if (!columns.some((c) => c.name === 'events')) db.exec('ALTER TABLE tasks ADD COLUMN events INTEGER NOT NULL DEFAULT 0');
  db.exec(EVENTS_FOLLOW_TASKS);
  db.exec(PUSH_SCHEMA);
}

export function prepareStatements(db: SqliteDatabase): Record<StatementName, SqliteStatement> {
  return {
    // Positional (insertValues): one insert per message, and binding by name costs a lookup per parameter.
    insert: db.prepare(
      `INSERT INTO tasks (${COLUMNS}, terminal) VALUES (${COLUMNS.split(',')
        .map(() => '?')
        .join(', ')}, ?)`,
    ),
    get: db.prepare(`SELECT ${READ_COLUMNS} FROM tasks WHERE id = ?`),
    transition: db.prepare(
      `UPDATE tasks SET state = @state, terminal = @terminal, status_message_id = @status_message_id, status_text = @status_text,
        artifact_id = COALESCE(@artifact_id, artifact_id), artifact_text = COALESCE(@artifact_text, artifact_text),
        run_id = COALESCE(@run_id, run_id), updated_at = @updated_at, events = events + @events_added,
        history = CASE WHEN @history_add IS NULL THEN history ELSE json_insert(COALESCE(history, '[]'), '$[#]', json(@history_add)) END
       WHERE id = @id AND terminal = 0 RETURNING ${READ_COLUMNS}`,
    ),
    // A chunk of a streamed reply: the artifact so far (GetTask shows it), one event more; not a status change.
    appendArtifact: db.prepare(
      `UPDATE tasks SET artifact_id = @artifact_id,
        artifact_text = CASE WHEN @append THEN COALESCE(artifact_text, '') || @text ELSE @text END, events = events + 1
       WHERE id = @id AND terminal = 0 RETURNING seq, events, context_id`,
    ),
    insertEvent: db.prepare('INSERT INTO task_events (task_seq, n, body, closes) VALUES (?, ?, ?, ?)'),
    enqueuePush: prepareEnqueue(db),
    eventsAfter: db.prepare(
      'SELECT n, body, closes FROM task_events WHERE task_seq = (SELECT seq FROM tasks WHERE id = ?) AND n > ? ORDER BY n',
    ),
    countTerminal: db.prepare('SELECT COUNT(*) AS n FROM tasks WHERE peer = ? AND terminal = 1'),
    // The peer's `excess` oldest terminal tasks (all of them if it has fewer), from the old end of the (peer,
    // terminal, seq) index: a trim costs what it removes, not a walk past the `keep` rows that stay (a cap can be
    // 1,000,000). One range of that index up to the last seq to go, rather than `seq IN (… LIMIT excess)`, which
    // collects the seqs into a temporary table and looks each one up again: measured, a fifth of a trim's cost.
    pruneOldest: db.prepare(
      `DELETE FROM tasks WHERE peer = @peer AND terminal = 1 AND seq <= COALESCE(
        (SELECT seq FROM tasks WHERE peer = @peer AND terminal = 1 ORDER BY seq LIMIT 1 OFFSET @excess - 1),
        (SELECT MAX(seq) FROM tasks WHERE peer = @peer AND terminal = 1))`,
    ),
    // Retention and idle expiry scan the table once a minute; an index for them would cost every write.
    deleteOld: db.prepare('DELETE FROM tasks WHERE terminal = 1 AND updated_at <= ?'),
    unsettled: db.prepare('SELECT id, state FROM tasks WHERE terminal = 0'),
    idle: db.prepare('SELECT id, state FROM tasks WHERE terminal = 0 AND updated_at <= ?'),
    // created_at <= updated_at: the range of the recency index bounds the rows, created_at filters them.
    countsSince: db.prepare(
      `SELECT agent_id, COUNT(*) AS n FROM tasks INDEXED BY ${RECENCY_INDEX}
       WHERE peer = @peer AND updated_at >= @since AND created_at >= @since GROUP BY agent_id ORDER BY agent_id`,
    ),
  };
}

export function toRow(task: A2aTask): TaskRow {
  return {
    id: task.id,
    peer: task.peer,
    context_id: task.contextId,
    agent_id: task.agentId ?? null,
    session_key: task.sessionKey ?? null,
    message_id: task.messageId,
    state: task.state,
    status_message_id: task.statusMessage?.messageId ?? null,
    status_text: task.statusMessage?.text ?? null,
    artifact_id: task.artifact?.artifactId ?? null,
    artifact_text: task.artifact?.text ?? null,
    run_id: task.runId ?? null,
    history: task.history.length ? JSON.stringify(task.history) : null,
    created_at: task.createdAt,
    updated_at: task.updatedAt,
  };
}

/** The insert's parameters: the values of COLUMNS in order, then `terminal`. */
export function insertValues(task: A2aTask): unknown[] {
  const r = toRow(task);
  const terminal = isTerminalState(task.state) ? 1 : 0;
  return [
    r.id,
    r.peer,
    r.context_id,
    r.agent_id,
    r.session_key,
    r.message_id,
    r.state,
    r.status_message_id,
    r.status_text,
    r.artifact_id,
    r.artifact_text,
    r.run_id,
    r.history,
    r.created_at,
    r.updated_at,
    terminal,
  ];
}

export function fromRow(row: TaskRow): A2aTask {
  const history = row.history === null ? [] : (JSON.parse(row.history) as TaskMessage[]);
  // The status message's metadata (a refusal's ErrorInfo) is kept with its copy in the history, not in a column.
  const metadata = row.status_message_id !== null ? history.find((m) => m.messageId === row.status_message_id)?.metadata : undefined;
  return {
    id: row.id,
    peer: row.peer,
    contextId: row.context_id,
    ...(row.agent_id !== null ? { agentId: row.agent_id } : {}),
    ...(row.session_key !== null ? { sessionKey: row.session_key } : {}),
    messageId: row.message_id,
    state: row.state,
    ...(row.status_text !== null
      ? { statusMessage: { messageId: row.status_message_id ?? '', text: row.status_text, ...(metadata ? { metadata } : {}) } }
      : {}),
    ...(row.artifact_id !== null ? { artifact: { artifactId: row.artifact_id, text: row.artifact_text ?? '' } } : {}),
    ...(row.run_id !== null ? { runId: row.run_id } : {}),
    history,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.events ? { events: row.events } : {}),
  };
}
