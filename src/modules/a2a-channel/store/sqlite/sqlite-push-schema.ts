import type { SqliteDatabase, SqliteStatement } from '../../../../common/storage/sqlite';
import type { PushConfigInput } from '../push-store.port';

/**
 * The SQLite layout of push notifications, in the task database (docs/a2a-push.md): the configs a peer registered
 * per task, and the outbox — one row per (event, config) to deliver, written in the same commit as the event, so an
 * event is never lost between "recorded" and "queued". Both go with their task (a trigger), like its events.
 */
export const PUSH_SCHEMA = `
CREATE TABLE IF NOT EXISTS push_configs (
  seq INTEGER PRIMARY KEY,
  task_seq INTEGER NOT NULL,
  task_id TEXT NOT NULL,
  peer TEXT NOT NULL,
  id TEXT NOT NULL,
  url TEXT NOT NULL,
  token TEXT,
  auth_scheme TEXT,
  auth_credentials TEXT,
  wire TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (task_seq, id)
);
CREATE TABLE IF NOT EXISTS push_outbox (
  seq INTEGER PRIMARY KEY,
  config_seq INTEGER NOT NULL,
  task_seq INTEGER NOT NULL,
  n INTEGER NOT NULL,
  body TEXT NOT NULL,
  closes INTEGER NOT NULL,
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER NOT NULL,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  done_at INTEGER
);
-- Due deliveries, oldest first; and per config, so each config's events go out in order.
CREATE INDEX IF NOT EXISTS push_outbox_due ON push_outbox (state, next_at);
CREATE INDEX IF NOT EXISTS push_outbox_by_config ON push_outbox (config_seq, state, seq);
-- A task's deliveries go with it (the trigger below): without this index every task deleted would scan the outbox.
CREATE INDEX IF NOT EXISTS push_outbox_by_task ON push_outbox (task_seq);
CREATE TRIGGER IF NOT EXISTS push_follows_task AFTER DELETE ON tasks
BEGIN
  DELETE FROM push_configs WHERE task_seq = old.seq;
  DELETE FROM push_outbox WHERE task_seq = old.seq;
END;
`;

/** Queues one recorded event for every push config of its task (none: an index probe, nothing written). */
export function prepareEnqueue(db: SqliteDatabase): SqliteStatement {
  return db.prepare(
    `INSERT INTO push_outbox (config_seq, task_seq, n, body, closes, state, next_at, created_at)
     SELECT seq, task_seq, @n, @body, @closes, 'pending', @now, @now FROM push_configs WHERE task_seq = @task_seq`,
  );
}

/** The columns of a push config row as both stores write them (the PostgreSQL one adds the task's row number). */
export function pushConfigColumns(task: { id: string; peer: string }, config: PushConfigInput) {
  return {
    task_id: task.id,
    peer: task.peer,
    config_id: config.id,
    url: config.url,
    token: config.token ?? null,
    auth_scheme: config.authentication?.scheme ?? null,
    auth_credentials: config.authentication?.credentials ?? null,
    wire: config.wire,
    created_at: Date.now(),
  };
}
