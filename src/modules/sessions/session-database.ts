/**
 * The SQLite layout of the session store: one row per session, one row per transcript line, in one file
 * in the state dir. Every operation the gateway does per message is an index seek or an append at the end
 * of a B-tree (O(log n) in the number of sessions and lines): creating a session inserts one row, a
 * transcript line is one row, a history tail reads the last rows of one session through an index.
 * See docs/sessions.md#session-store.
 */
import * as path from 'node:path';
import {
  openSqlite,
  openSqliteReadOnly,
  SqliteDatabase,
  SqliteStatement,
  useDurableStoreSettings,
  REQUEST_PATH_CACHE_MIB,
} from '../../common/storage/sqlite';
import { timeOrderedId } from '../../common/ids';
import type { LabelHolders } from './session-entry-rules';
import type { DeliveryContext, SessionEntry, TranscriptRole, TranscriptVersion } from './session-store.port';

export const SESSION_DATABASE_FILE = 'sessions.sqlite';

/** Where the store lives inside the state dir. */
export function sessionDatabasePath(stateDir: string): string {
  return path.join(stateDir, SESSION_DATABASE_FILE);
}

// Timestamps are epoch milliseconds (entries carry them as ISO strings, which round-trip exactly).
// `sessions_recent*` serve the most-recently-updated-first listing; the label indexes are partial, so the
// sessions without a label (nearly all of them) cost nothing there.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (
  seq INTEGER PRIMARY KEY,
  session_key TEXT NOT NULL UNIQUE,
  session_id TEXT NOT NULL UNIQUE,
  agent_id TEXT NOT NULL,
  label TEXT,
  spawned_by TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  delivery_context TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS sessions_label ON sessions (agent_id, label) WHERE label IS NOT NULL;
CREATE INDEX IF NOT EXISTS sessions_label_any ON sessions (label) WHERE label IS NOT NULL;
CREATE INDEX IF NOT EXISTS sessions_recent ON sessions (updated_at, seq);
CREATE INDEX IF NOT EXISTS sessions_recent_by_agent ON sessions (agent_id, updated_at, seq);
CREATE TABLE IF NOT EXISTS transcript_lines (
  id INTEGER PRIMARY KEY,
  session_seq INTEGER NOT NULL,
  role TEXT NOT NULL,
  line TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS transcript_by_session ON transcript_lines (session_seq, id);
CREATE TABLE IF NOT EXISTS imported_layouts (
  file TEXT PRIMARY KEY,
  sessions INTEGER NOT NULL,
  lines INTEGER NOT NULL,
  imported_at INTEGER NOT NULL
);
`;

export interface SessionRow {
  seq: number;
  session_key: string;
  session_id: string;
  agent_id: string;
  label: string | null;
  spawned_by: string | null;
  created_at: number;
  updated_at: number;
  delivery_context: string | null;
}

export interface LineRow {
  id: number;
  line: string;
}

/** Sessions with the id of their last line as the transcript version (an index seek per session). */
const VERSION_SELECT = `SELECT session_key, session_id, updated_at,
  COALESCE((SELECT max(id) FROM transcript_lines WHERE session_seq = sessions.seq), 0) AS version FROM sessions`;

const SESSION_COLUMNS = 'seq, session_key, session_id, agent_id, label, spawned_by, created_at, updated_at, delivery_context';

/** The statements of the hot path, prepared once per connection. */
export interface SessionStatements {
  byKey: SqliteStatement;
  insertSession: SqliteStatement;
  touch: SqliteStatement;
  setLabel: SqliteStatement;
  setDeliveryContext: SqliteStatement;
  labelHolder: SqliteStatement;
  insertLine: SqliteStatement;
  tail: SqliteStatement;
  tailWithoutTools: SqliteStatement;
  linesAfter: SqliteStatement;
  versionsOfAgent: SqliteStatement;
  versionOfSession: SqliteStatement;
}

export interface SessionConnection {
  db: SqliteDatabase;
  statements: SessionStatements;
}

/**
 * Opens (creating) the store for the gateway. WAL with synchronous=NORMAL: a commit survives the process
 * being killed at any point (only a power loss can drop the last commits), and a torn write is never read
 * back — SQLite's journal rolls an incomplete transaction away on the next open.
 */
export function openSessionDatabase(file: string): SessionConnection {
  const db = openSqlite(file);
  try {
    useDurableStoreSettings(db, { cacheMiB: REQUEST_PATH_CACHE_MIB });
    db.exec(SCHEMA);
    return { db, statements: prepare(db) };
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Opens an existing store read-only (the CLI, while a gateway may be writing it). */
export function openSessionDatabaseReadOnly(file: string): SessionConnection {
  const db = openSqliteReadOnly(file);
  try {
    return { db, statements: prepare(db) };
  } catch (err) {
    db.close();
    throw err;
  }
}

function prepare(db: SqliteDatabase): SessionStatements {
  return {
    byKey: db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE session_key = ?`),
    // Positional: one insert per new conversation, and binding by name costs a lookup per parameter.
    insertSession: db.prepare(
      `INSERT INTO sessions (session_key, session_id, agent_id, label, spawned_by, created_at, updated_at, delivery_context)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    touch: db.prepare('UPDATE sessions SET updated_at = ? WHERE seq = ? AND updated_at < ?'),
    setLabel: db.prepare('UPDATE sessions SET label = ? WHERE seq = ?'),
    setDeliveryContext: db.prepare('UPDATE sessions SET delivery_context = ? WHERE seq = ?'),
    labelHolder: db.prepare('SELECT session_key FROM sessions WHERE agent_id = ? AND label = ?'),
    insertLine: db.prepare('INSERT INTO transcript_lines (session_seq, role, line) VALUES (?, ?, ?)'),
    tail: db.prepare('SELECT id, line FROM transcript_lines WHERE session_seq = ? ORDER BY id DESC LIMIT ?'),
    tailWithoutTools: db.prepare(`SELECT id, line FROM transcript_lines WHERE session_seq = ? AND role <> 'tool' ORDER BY id DESC LIMIT ?`),
    linesAfter: db.prepare('SELECT id, line FROM transcript_lines WHERE session_seq = ? AND id > ? ORDER BY id LIMIT ?'),
    versionsOfAgent: db.prepare(`${VERSION_SELECT} WHERE agent_id = ?`),
    versionOfSession: db.prepare(`${VERSION_SELECT} WHERE agent_id = ? AND session_id = ?`),
  };
}

export function entryFromRow(row: SessionRow): SessionEntry {
  const entry: SessionEntry = {
    sessionKey: row.session_key,
    sessionId: row.session_id,
    agentId: row.agent_id,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
  if (row.label !== null) entry.label = row.label;
  if (row.spawned_by !== null) entry.spawnedBy = row.spawned_by;
  if (row.delivery_context !== null) entry.deliveryContext = JSON.parse(row.delivery_context) as DeliveryContext;
  return entry;
}

export function rowFromEntry(entry: SessionEntry): Omit<SessionRow, 'seq'> {
  return {
    session_key: entry.sessionKey,
    session_id: entry.sessionId,
    agent_id: entry.agentId,
    label: entry.label ?? null,
    spawned_by: entry.spawnedBy ?? null,
    created_at: Date.parse(entry.createdAt),
    updated_at: Date.parse(entry.updatedAt),
    delivery_context: entry.deliveryContext ? JSON.stringify(entry.deliveryContext) : null,
  };
}

/** Inserts a session row; returns its seq. */
export function insertSession(c: SessionConnection, entry: SessionEntry): number {
  const r = rowFromEntry(entry);
  const values = [r.session_key, r.session_id, r.agent_id, r.label, r.spawned_by, r.created_at, r.updated_at, r.delivery_context];
  return Number(c.statements.insertSession.run(values).lastInsertRowid);
}

/** Inserts one transcript line (already serialized). */
export function insertLine(c: SessionConnection, sessionSeq: number, role: TranscriptRole, json: string): void {
  c.statements.insertLine.run(sessionSeq, role, json);
}

export const LIST_COLUMNS = SESSION_COLUMNS;

/** A committed session: its row number and its entry. */
export interface StoredSession {
  seq: number;
  entry: SessionEntry;
}

/** Inserts a new session row (inside a write): a fresh, time-ordered sessionId, created and updated `at`. */
export function createSession(
  c: SessionConnection,
  key: string,
  agentId: string,
  at: number,
  init: { label?: string; spawnedBy?: string; deliveryContext?: DeliveryContext },
): StoredSession {
  const entry = newSessionEntry(key, agentId, at, init);
  return { seq: insertSession(c, entry), entry };
}

/** A new session's entry: a fresh, time-ordered sessionId, created and updated `at`. */
export function newSessionEntry(
  key: string,
  agentId: string,
  at: number,
  init: { label?: string; spawnedBy?: string; deliveryContext?: DeliveryContext },
): SessionEntry {
  const iso = new Date(at).toISOString();
  return {
    sessionKey: key,
    // Never derived from user text (the stem becomes a file name when the session is exported); time-ordered
    // so the session_id index grows at its end.
    sessionId: timeOrderedId(),
    agentId,
    ...(init.label !== undefined ? { label: init.label } : {}),
    ...(init.spawnedBy !== undefined ? { spawnedBy: init.spawnedBy } : {}),
    createdAt: iso,
    updatedAt: iso,
    ...(init.deliveryContext ? { deliveryContext: init.deliveryContext } : {}),
  };
}

/** Who holds a label in one agent, as the label check asks it. */
export function labelHolders(c: SessionConnection, agentId: string): LabelHolders {
  return {
    agentId,
    labelHolder: (label) => (c.statements.labelHolder.get(agentId, label) as { session_key: string } | undefined)?.session_key,
  };
}

/** The transcript versions of an agent's sessions, or of its one session `sessionId`. */
export function transcriptVersions(c: SessionConnection, agentId: string, sessionId?: string): TranscriptVersion[] {
  const rows = (
    sessionId === undefined ? c.statements.versionsOfAgent.all(agentId) : c.statements.versionOfSession.all(agentId, sessionId)
  ) as Array<{ session_key: string; session_id: string; updated_at: number; version: number }>;
  return rows.map((r) => ({ sessionKey: r.session_key, sessionId: r.session_id, updatedAt: r.updated_at, version: r.version }));
}
