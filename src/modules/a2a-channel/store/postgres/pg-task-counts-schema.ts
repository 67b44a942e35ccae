import type { Migration } from '../../../../common/storage/postgres';

/** The transaction-local setting that carries `keptTasksPerPeer` to the trigger below. */
const KEEP_SETTING = 'clawgate.kept_tasks_per_peer';

/**
 * Finished tasks counted and trimmed per peer by triggers on `tasks`, so keeping a peer at `keptTasksPerPeer` costs
 * the same at any cap and takes no statement of its own.
 *
 * The count (`task_peer_counts`) changes at the end of every insert, state change and delete, whoever makes it:
 * another replica, a replica of an earlier version during a rolling update (the migration counts what is there once),
 * the cascade of a trim. Its row lock makes writers of one peer take turns from there to their commit.
 *
 * The trim runs at the commit (a deferred trigger) of a write that made a task finished and named the cap
 * (KEEP_CAP_CONDITION): the transaction's later statements (the events of the task it just finished) are written
 * first. It removes the peer's oldest finished tasks beyond the count, which already includes every change of the
 * transaction, under that lock and with a fresh snapshot, so what it counts is what it sees and the cap is exact; its
 * deletes lower the count at once, so a second trim in the same commit finds nothing more to do.
 */
export const TERMINAL_COUNT_MIGRATION: Migration = {
  version: 5,
  name: 'finished tasks counted and trimmed per peer',
  sql: `
CREATE TABLE task_peer_counts (
  peer TEXT PRIMARY KEY,
  terminal BIGINT NOT NULL
);
CREATE FUNCTION clawgate_count_finished_tasks() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta INTEGER := (CASE WHEN TG_OP <> 'DELETE' AND NEW.terminal THEN 1 ELSE 0 END)
    - (CASE WHEN TG_OP <> 'INSERT' AND OLD.terminal THEN 1 ELSE 0 END);
BEGIN
  IF delta <> 0 THEN
    INSERT INTO task_peer_counts AS c (peer, terminal) VALUES (COALESCE(NEW.peer, OLD.peer), delta)
      ON CONFLICT (peer) DO UPDATE SET terminal = c.terminal + delta;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER tasks_count_finished AFTER INSERT OR DELETE OR UPDATE OF terminal ON tasks
  FOR EACH ROW EXECUTE FUNCTION clawgate_count_finished_tasks();
CREATE FUNCTION clawgate_trim_finished_tasks() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  keep BIGINT := NULLIF(current_setting('${KEEP_SETTING}', true), '')::BIGINT;
  kept BIGINT;
BEGIN
  IF keep IS NULL THEN RETURN NULL; END IF;
  SELECT terminal INTO kept FROM task_peer_counts WHERE peer = NEW.peer FOR UPDATE;
  IF kept > keep THEN
    DELETE FROM tasks WHERE seq IN (SELECT seq FROM tasks WHERE peer = NEW.peer AND terminal ORDER BY seq LIMIT kept - keep);
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER tasks_trim_finished AFTER INSERT OR UPDATE OF terminal ON tasks
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.terminal) EXECUTE FUNCTION clawgate_trim_finished_tasks();
INSERT INTO task_peer_counts (peer, terminal) SELECT peer, COUNT(*) FROM tasks WHERE terminal GROUP BY peer;`,
};

/**
 * The count of inserts and deletes once per statement instead of once per row: a batch of k finished tasks (the
 * group commit's one statement) and the trim's delete of k old ones each update a peer's count row once, where the row
 * trigger updated it k times (k row versions of one hot row, and k trigger calls). Peers are counted in peer order, so
 * a statement that spans several takes their count locks in the same order as before. A change of `terminal` by
 * UPDATE stays a row trigger: a statement trigger with transition tables cannot name the column, so it would run for
 * every update of a task (each streamed chunk) to find no change.
 */
export const STATEMENT_COUNT_MIGRATION: Migration = {
  version: 7,
  name: 'finished tasks counted per statement',
  sql: `
DROP TRIGGER tasks_count_finished ON tasks;
CREATE TRIGGER tasks_count_finished AFTER UPDATE OF terminal ON tasks
  FOR EACH ROW EXECUTE FUNCTION clawgate_count_finished_tasks();
CREATE FUNCTION clawgate_count_inserted_tasks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO task_peer_counts AS c (peer, terminal)
    SELECT peer, COUNT(*) FROM inserted WHERE terminal GROUP BY peer ORDER BY peer
    ON CONFLICT (peer) DO UPDATE SET terminal = c.terminal + EXCLUDED.terminal;
  RETURN NULL;
END $$;
CREATE TRIGGER tasks_count_inserted AFTER INSERT ON tasks REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION clawgate_count_inserted_tasks();
CREATE FUNCTION clawgate_count_deleted_tasks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO task_peer_counts AS c (peer, terminal)
    SELECT peer, -COUNT(*) FROM deleted WHERE terminal GROUP BY peer ORDER BY peer
    ON CONFLICT (peer) DO UPDATE SET terminal = c.terminal + EXCLUDED.terminal;
  RETURN NULL;
END $$;
CREATE TRIGGER tasks_count_deleted AFTER DELETE ON tasks REFERENCING OLD TABLE AS deleted
  FOR EACH STATEMENT EXECUTE FUNCTION clawgate_count_deleted_tasks();`,
};

/**
 * A condition (always true) that sets the cap for the trigger, local to the writing transaction, before the row is
 * written: part of the `WHERE` of each insert and state change, so no statement is added. A write without it (a
 * retention delete, a replica of an earlier version) is counted and trims nothing.
 */
export const KEEP_CAP_CONDITION = `set_config('${KEEP_SETTING}', @keep, true) IS NOT NULL`;
