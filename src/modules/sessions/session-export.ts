/**
 * A session's transcript as JSONL straight from the database file, for the CLI (`clawgate sessions export`):
 * it opens the store read-only, so it works while a gateway is running on the same state dir (WAL lets a
 * reader in another process see every committed line) and never creates or changes anything.
 */
import { existsSync } from 'node:fs';
import { notFound } from '../../common/errors/app-error';
import { entryFromRow, openSessionDatabaseReadOnly, sessionDatabasePath, SessionRow } from './session-database';
import { sessionNotFound } from './session-entry-rules';
import { canonicalSessionKey } from './session-input';
import { exportLines } from './session-lines';
import { maskedExport } from './masked-export';
import type { SessionEntry } from './session-store.port';

export interface OpenExport {
  entry: SessionEntry;
  /** JSONL chunks of whole lines, oldest first, configured secrets masked (masked-export.ts). */
  chunks: AsyncIterable<string>;
  close(): void;
}

/** Throws AppErrors: 400 for a malformed key, 404 when the state dir has no session database or not this session. */
export function openSessionExport(stateDir: string, sessionKey: string): OpenExport {
  const { key } = canonicalSessionKey(sessionKey);
  const file = sessionDatabasePath(stateDir);
  if (!existsSync(file))
    throw notFound(
      `no session database at ${file} (has a gateway run with this state dir? With gateway.state on PostgreSQL the sessions are in the database: add --remote to ask the running gateway)`,
    );
  const c = openSessionDatabaseReadOnly(file);
  const row = c.statements.byKey.get(key) as SessionRow | undefined;
  if (!row) {
    c.db.close();
    throw sessionNotFound(key);
  }
  return { entry: entryFromRow(row), chunks: maskedExport(exportLines(c, row.seq)), close: () => c.db.close() };
}
