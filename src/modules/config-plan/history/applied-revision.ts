import { existsSync } from 'node:fs';
import { openSqliteReadOnly } from '../../../common/storage/sqlite';
import { configHistoryDatabasePath } from './sqlite-config-history.store';

/**
 * The CLI edits openclaw.json while a gateway may run on the same state dir; the revision the CLI computes is the
 * config as its own shell resolves it (its `${VAR}`s), which need not be the gateway's. These read, from outside
 * the gateway's process and read-only, what the gateway recorded in `<stateDir>/config-history.sqlite` once it
 * applied the edit, so the CLI can name the revision the gateway's status, history and rollback know.
 */

/** The newest `seq` of the history (0 when there is none yet): entries after it are the ones still to come. */
export function configHistoryHighWater(stateDir: string): number {
  return withHistory(stateDir, 0, (db) => (db.prepare('SELECT MAX(seq) AS seq FROM revisions').get() as { seq: number | null }).seq ?? 0);
}

/** The revision the gateway recorded for content `contentHash` after entry `afterSeq`, if it has applied it yet. */
export function appliedRevisionSince(stateDir: string, contentHash: string, afterSeq: number): string | undefined {
  return withHistory(stateDir, undefined, (db) => {
    const row = db
      .prepare('SELECT revision FROM revisions WHERE content_hash = ? AND seq > ? ORDER BY seq DESC LIMIT 1')
      .get(contentHash, afterSeq) as { revision: string } | undefined;
    return row?.revision;
  });
}

function withHistory<T>(stateDir: string, none: T, read: (db: ReturnType<typeof openSqliteReadOnly>) => T): T {
  const file = configHistoryDatabasePath(stateDir);
  if (!existsSync(file)) return none;
  const db = openSqliteReadOnly(file, { busyTimeoutMs: 1000 });
  try {
    return read(db);
  } catch (err) {
    // A history without its table yet (a gateway that is just starting) has nothing to say.
    if (/no such table/.test((err as Error).message)) return none;
    throw err;
  } finally {
    db.close();
  }
}
