/**
 * The writes of the PostgreSQL session store, each run inside one transaction: creating a session or bringing it in
 * line with what its creator asks for (the rule of session-upsert.ts, with the row locked instead of a single
 * writer), and appending a line with the next number of its session.
 */
import { entryFromRow, newSessionEntry, rowFromEntry, type SessionRow } from './session-database';
import { assertLabelFree, changes, type LabelHolders } from './session-entry-rules';
import type { SessionInit, UpsertedSession } from './session-upsert';
import { PG_SESSION_SQL } from './pg-session-schema';
import type { SessionEntry, TranscriptRole } from './session-store.port';

export type Sql = (sql: string, params?: Readonly<Record<string, unknown>>) => Promise<Array<Record<string, unknown>>>;

/** Who holds a label, asked inside the write (the unique index settles a claim racing it: the write is retried). */
async function assertLabelFreeIn(sql: Sql, agentId: string, label: string, key: string): Promise<void> {
  const [row] = await sql(PG_SESSION_SQL.labelHolder, { agent: agentId, label });
  const holders: LabelHolders = { agentId, labelHolder: () => row?.session_key as string | undefined };
  assertLabelFree(holders, label, key);
}

/** The label and delivery context `init` asks for, on a session row this transaction has locked. */
async function applyInit(sql: Sql, seq: number, entry: SessionEntry, init: SessionInit): Promise<void> {
  if (init.label !== undefined && init.label !== entry.label) {
    await assertLabelFreeIn(sql, entry.agentId, init.label, entry.sessionKey);
    await sql(PG_SESSION_SQL.setLabel, { label: init.label, seq });
    entry.label = init.label;
  }
  if (init.deliveryContext !== undefined && changes(entry, undefined, init.deliveryContext)) {
    await sql(PG_SESSION_SQL.setDeliveryContext, { dc: JSON.stringify(init.deliveryContext), seq });
    entry.deliveryContext = init.deliveryContext;
  }
}

/**
 * Creates the session, or applies `init` to the existing one (`spawnedBy` is fixed at creation). Two writers
 * creating one key at once make one row: the second's insert finds the first's (ON CONFLICT waits for it to commit)
 * and goes on with that row, locked.
 */
export async function upsertPgSession(sql: Sql, key: string, agentId: string, at: number, init: SessionInit): Promise<UpsertedSession> {
  let [row] = await sql(PG_SESSION_SQL.byKeyForUpdate, { key });
  if (!row) {
    if (init.label !== undefined) await assertLabelFreeIn(sql, agentId, init.label, key);
    const entry = newSessionEntry(key, agentId, at, init);
    const [inserted] = await sql(PG_SESSION_SQL.insert, { ...rowFromEntry(entry), lines: 0 });
    if (inserted) return { created: true, seq: inserted.seq as number, entry };
    [row] = await sql(PG_SESSION_SQL.byKeyForUpdate, { key });
  }
  const entry = entryFromRow(row as unknown as SessionRow);
  await applyInit(sql, row.seq as number, entry, init);
  return { created: false, seq: row.seq as number, entry };
}

export interface AppendedLine {
  session: UpsertedSession;
  /** The line's number in its session, from 1. */
  n: number;
}

/**
 * One transcript line: the session's counter is incremented first (which locks its row until the commit, so appends
 * of one session from any replica take turns and get consecutive numbers), creating the session when missing and
 * applying `init` as getOrCreate would. `updatedAt` is bumped in the same statement.
 */
export async function appendPgLine(
  sql: Sql,
  key: string,
  agentId: string,
  at: number,
  init: SessionInit | undefined,
  role: TranscriptRole,
  json: string,
): Promise<AppendedLine> {
  let created = false;
  let [row] = await sql(PG_SESSION_SQL.nextLine, { key, at });
  if (!row) {
    created = (await upsertPgSession(sql, key, agentId, at, init ?? {})).created;
    [row] = await sql(PG_SESSION_SQL.nextLine, { key, at });
  }
  const entry = entryFromRow(row as unknown as SessionRow);
  const seq = row.seq as number;
  if (init !== undefined && !created) await applyInit(sql, seq, entry, init);
  const n = row.lines as number;
  await sql(PG_SESSION_SQL.insertLine, { seq, n, role, line: json });
  return { session: { created, seq, entry }, n };
}

/** What a one-statement append sends: the line, the creation asked for, and the notice's channel and origin. */
export interface LoneAppend {
  key: string;
  agentId: string;
  at: number;
  init: Omit<SessionInit, 'label'> | undefined;
  role: TranscriptRole;
  json: string;
  channel: string;
  origin: string;
}

/**
 * The append of a caller that claims no label, in one statement instead of a transaction of five or more: the
 * update of a session the store has seen (`known`), else the insert that creates it or, when another writer made it
 * first, updates it. Each runs as its own transaction, so the guarantees of appendPgLine hold: consecutive numbers
 * under the row lock, the notice at the commit. `spawnedBy` counts only at creation, as there.
 */
export async function appendPgLineAlone(sql: Sql, known: boolean, append: LoneAppend): Promise<AppendedLine> {
  const dc = append.init?.deliveryContext;
  const params = {
    session_key: append.key,
    at: append.at,
    set_dc: dc !== undefined,
    delivery_context: dc === undefined ? null : JSON.stringify(dc),
    role: append.role,
    line: append.json,
    channel: append.channel,
    origin: append.origin,
  };
  if (known) {
    const [row] = await sql(PG_SESSION_SQL.appendToSession, params);
    if (row) {
      const entry = entryFromRow(row as unknown as SessionRow);
      return { session: { created: false, seq: row.seq as number, entry }, n: row.lines as number };
    }
  }
  const fresh = newSessionEntry(append.key, append.agentId, append.at, append.init ?? {});
  const [row] = await sql(PG_SESSION_SQL.createAndAppend, {
    ...params,
    session_id: fresh.sessionId,
    agent_id: append.agentId,
    spawned_by: fresh.spawnedBy ?? null,
  });
  const entry = entryFromRow(row as unknown as SessionRow);
  // The id this insert generated comes back only when it made the row.
  return { session: { created: entry.sessionId === fresh.sessionId, seq: row.seq as number, entry }, n: row.lines as number };
}

/**
 * The lone appends of many sessions (each key once) in one statement, answered in their order: what
 * appendPgLineAlone does for each, with the same guarantees, as one transaction.
 */
export async function appendPgLinesTogether(sql: Sql, appends: readonly LoneAppend[]): Promise<AppendedLine[]> {
  const fresh = appends.map((a) => newSessionEntry(a.key, a.agentId, a.at, a.init ?? {}));
  const batch = appends.map((a, i) => {
    const dc = a.init?.deliveryContext;
    return {
      i,
      session_key: a.key,
      session_id: fresh[i].sessionId,
      agent_id: a.agentId,
      spawned_by: fresh[i].spawnedBy ?? null,
      at: a.at,
      delivery_context: dc === undefined ? null : JSON.stringify(dc),
      role: a.role,
      line: a.json,
    };
  });
  // Every notice of one statement has the same channel and origin (one store's).
  const rows = await sql(PG_SESSION_SQL.createAndAppendMany, {
    batch: JSON.stringify(batch),
    channel: appends[0].channel,
    origin: appends[0].origin,
  });
  const appended = new Array<AppendedLine>(appends.length);
  for (const row of rows) {
    const i = row.i as number;
    const entry = entryFromRow(row as unknown as SessionRow);
    appended[i] = { session: { created: entry.sessionId === fresh[i].sessionId, seq: row.seq as number, entry }, n: row.lines as number };
  }
  if (rows.length !== appends.length || appended.includes(undefined as unknown as AppendedLine)) {
    throw new Error(`a batch of ${appends.length} appends stored ${rows.length} lines`);
  }
  return appended;
}
