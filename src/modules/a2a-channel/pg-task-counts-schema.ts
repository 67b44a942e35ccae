import type { Migration } from '../../common/storage/postgres';

/**
 * Finished tasks counted per peer, so keeping a peer at `keptTasksPerPeer` costs the same at any cap: the count is one
 * row, kept by a trigger on `tasks` in the transaction of every insert, state change and delete — whoever makes it,
 * including a replica of an earlier version during a rolling update and the cascade of a trim — instead of a COUNT
 * over up to a million index entries per finished task. The migration counts what is there once.
 */
export const TERMINAL_COUNT_MIGRATION: Migration = {
  version: 5,
  name: 'finished tasks counted per peer',
  sql: `
CREATE TABLE task_peer_counts (
  peer TEXT PRIMARY KEY,
  terminal BIGINT NOT NULL
);
CREATE FUNCTION clawgate_count_finished_tasks() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta INTEGER := 0;
  p TEXT;
BEGIN
  IF TG_OP = 'INSERT' THEN
    p := NEW.peer; delta := CASE WHEN NEW.terminal THEN 1 ELSE 0 END;
  ELSIF TG_OP = 'DELETE' THEN
    p := OLD.peer; delta := CASE WHEN OLD.terminal THEN -1 ELSE 0 END;
  ELSE
    p := NEW.peer; delta := (CASE WHEN NEW.terminal THEN 1 ELSE 0 END) - (CASE WHEN OLD.terminal THEN 1 ELSE 0 END);
  END IF;
  IF delta <> 0 THEN
    INSERT INTO task_peer_counts AS c (peer, terminal) VALUES (p, delta)
      ON CONFLICT (peer) DO UPDATE SET terminal = c.terminal + delta;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER tasks_count_finished AFTER INSERT OR DELETE OR UPDATE OF terminal ON tasks
  FOR EACH ROW EXECUTE FUNCTION clawgate_count_finished_tasks();
INSERT INTO task_peer_counts (peer, terminal) SELECT peer, COUNT(*) FROM tasks WHERE terminal GROUP BY peer;`,
};

/**
 * The peer's oldest finished tasks beyond `keep` go, `pending` more being counted as finished already (a task this
 * statement inserts, whose trigger runs at its end). The count is read under its row lock, so writers of one peer
 * trim one after another from the latest count and never remove more than the excess. A trim racing another can
 * find some of the rows it picked gone already (they were chosen from the statement's snapshot, taken before the
 * lock): `short` says how many it still owes, and the store trims again until nothing is owed.
 */
function trimClauses(pending: 0 | 1): string {
  return `counted AS (SELECT GREATEST(COALESCE((SELECT terminal FROM task_peer_counts WHERE peer = @peer FOR UPDATE), 0)
      + ${pending} - @keep, 0) AS excess),
    trimmed AS (DELETE FROM tasks WHERE seq IN (SELECT seq FROM tasks WHERE peer = @peer AND terminal ORDER BY seq
      LIMIT (SELECT excess FROM counted)) RETURNING 1)`;
}

const SHORT = '(SELECT excess FROM counted) - (SELECT COUNT(*) FROM trimmed) AS short';

export const PG_TRIM_SQL = {
  /** After a statement made tasks of the peer finished. */
  trimPeer: `WITH ${trimClauses(0)} SELECT ${SHORT}`,
  /** The insert of a finished task and its trim in one statement. */
  insertFinished: (insert: string) => `WITH ${trimClauses(1)}, inserted AS (${insert} RETURNING 1) SELECT ${SHORT} FROM inserted`,
} as const;

/** How many more times a trim that came up short is repeated before the next finished task is left to finish it. */
export const TRIM_RETRIES = 3;
