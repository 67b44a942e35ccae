import { randomUUID } from 'node:crypto';
import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { Pool } from 'pg';
import { createPostgresPool, migrate, namedQuery, postgresStartError } from '../../common/storage/postgres';
import { keysetPage, sqlFilter } from '../../common/storage/sql-filter';
import { PG_SESSION_COLUMNS, PG_SESSION_SQL, SESSION_MIGRATION_SCOPE, SESSION_MIGRATIONS } from './pg-session-schema';
import { AppendNotices, APPEND_CHANNEL, appendNotice } from './pg-session-notices';
import { PgSessionWriteQueue } from './pg-session-write-queue';
import { PgStatementBatch } from '../../common/storage/pg-statement-batch';
import {
  appendPgLine,
  appendPgLineAlone,
  appendPgLinesTogether,
  type AppendedLine,
  type LoneAppend,
  Sql,
  upsertPgSession,
} from './pg-session-writes';
import { PgOwnTails } from './pg-own-tails';
import { entryFromRow, type LineRow, type SessionRow } from './session-database';
import { assertLabelFree, changes, copyEntry, sessionNotFound } from './session-entry-rules';
import { canonicalSessionKey, checkAgentId, checkLabel, checkLimit, labelOrUndefined } from './session-input';
import { EXPORT_CHUNK_LINES, parseLineRows } from './session-lines';
import { decodeCursor, encodeCursor } from './session-list-query';
import { checkPageFilter } from './session-page-filter';
import type {
  NewTranscriptLine,
  SessionCreateOptions,
  SessionEntry,
  SessionHistory,
  SessionHistoryOptions,
  SessionListFilter,
  SessionPage,
  SessionPageFilter,
  SessionStore,
  TranscriptAppended,
  TranscriptLine,
  TranscriptVersion,
} from './session-store.port';
import { checkSessionInit } from './session-upsert';
import { withoutTools } from './transcript-jsonl';
import { appendInput, isSpawnedFrom, type AppendInput } from './session-append-input';

export interface PgSessionStoreOptions {
  /** The agents of the current config: a listing without `agentId` shows their sessions only. */
  configuredAgents: () => readonly string[];
  poolSize?: number;
}

/** What never changes about a committed session (sessions are never deleted, `spawnedBy` is fixed at creation). */
interface FixedFacts {
  seq: number;
  agentId: string;
  sessionId: string;
  spawnedBy?: string;
}

/** Sessions whose fixed facts are kept in memory (a hundred bytes each). */
const FIXED_CACHE_SIZE = 20_000;

/**
 * The SessionStore on PostgreSQL, shared by replicas (docs/deploy.md). Every write is one transaction and its
 * promise settles after COMMIT; the writes of one session key run in the order they were called in this process
 * (a chain per key), and a read of a session waits for the writes requested before it, as in the SQLite store.
 * Across replicas the database orders them: the session row's lock numbers lines, ON CONFLICT makes one session of
 * two concurrent creations, the unique label index one holder of two concurrent claims.
 *
 * Entries and labels, which another replica may change, are read from the database at each call. The fixed facts of a
 * session (its row number, agent, id, parent) are remembered, which stay right whoever writes; and so is the tail of
 * a transcript this store has written whole — created by its own append, every line since numbered after the one
 * before — until another replica's append notice (or a line number out of turn) drops it. Append listeners hear
 * this store's appends after their commit and the other replicas' through LISTEN/NOTIFY (pg-session-notices.ts).
 *
 * Appends that claim no label go through a group commit (PgStatementBatch): those of different sessions made while
 * the previous batch is on its way are one statement.
 */
export class PgSessionStore implements SessionStore, OnApplicationShutdown {
  private readonly logger = new Logger('sessions');
  private closed = false;
  private readonly fixed = new LRUCache<string, FixedFacts>({ max: FIXED_CACHE_SIZE });
  private readonly appendListeners = new Set<(event: TranscriptAppended) => void>();

  /** Names this store in its append notices, so it does not hear its own. */
  private readonly origin = randomUUID();
  private notices?: AppendNotices;
  private readonly writes: PgSessionWriteQueue;
  private readonly tails = new PgOwnTails();
  private readonly lone: PgStatementBatch<LoneAppend, AppendedLine>;

  protected constructor(
    private readonly pool: Pool,
    private readonly options: PgSessionStoreOptions,
  ) {
    this.writes = new PgSessionWriteQueue(pool, (text, params = {}) => this.query(text, params));
    // On the pool itself: an append already queued when the store starts closing is still written (close waits).
    const statement: Sql = (text, params) => namedQuery(pool, text, params);
    this.lone = new PgStatementBatch({
      many: (appends) => appendPgLinesTogether(statement, appends),
      one: (append) => appendPgLineAlone(statement, this.fixed.has(append.key), append),
    });
  }

  /** Connects, applies the schema migrations, and returns the store; a server it cannot reach fails here. */
  static async open(url: string, options: PgSessionStoreOptions): Promise<PgSessionStore> {
    const pool = createPostgresPool(url, { max: options.poolSize });
    try {
      await migrate(pool, SESSION_MIGRATION_SCOPE, SESSION_MIGRATIONS);
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw postgresStartError(url, 'the session store could not start', err);
    }
    const store = new PgSessionStore(pool, options);
    store.notices = new AppendNotices(
      url,
      store.origin,
      (event) => {
        // Another replica appended: what this one remembers of the transcript is no longer all of it.
        store.tails.drop(event.sessionKey);
        store.tell(event);
      },
      () => store.tails.clear(),
    );
    try {
      await store.notices.start();
    } catch (err) {
      await store.close();
      throw postgresStartError(url, 'the session store could not start', err);
    }
    return store;
  }

  async get(sessionKey: string): Promise<SessionEntry | undefined> {
    const { key } = canonicalSessionKey(sessionKey);
    await this.settled(key);
    return this.readEntry(key);
  }

  async getOrCreate(sessionKey: string, init: SessionCreateOptions = {}): Promise<SessionEntry> {
    const { key, agentId } = canonicalSessionKey(sessionKey);
    const wanted = checkSessionInit(init, key);
    // The existing session that needs no change (the common case) is one read, no transaction.
    if (!this.writes.pending(key)) {
      const current = await this.readEntry(key);
      if (current && !changes(current, wanted.label, wanted.deliveryContext)) return current;
    }
    const at = this.now().getTime();
    const result = await this.write(key, (sql) => upsertPgSession(sql, key, agentId, at, wanted));
    this.remember(result.seq, result.entry);
    return copyEntry(result.entry);
  }

  async list(filter: SessionListFilter = {}): Promise<SessionEntry[]> {
    return (await this.page(filter)).sessions;
  }

  async page(filter: SessionPageFilter = {}): Promise<SessionPage> {
    const query = checkPageFilter(filter, this.now().getTime(), this.options.configuredAgents);
    if (!query || (query.agentId === undefined && !query.agentIds.length)) return { sessions: [] };
    const position = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const where = sqlFilter([
      query.agentId !== undefined
        ? ['agent_id = @agent', { agent: query.agentId }]
        : ['agent_id = ANY(@agents::text[])', { agents: [...query.agentIds] }],
      query.label !== undefined && ['label = @label', { label: query.label }],
      query.since !== undefined && ['updated_at >= @since', { since: query.since }],
      position && ['(updated_at, seq) < (@cursorUpdatedAt, @cursorSeq)', { cursorUpdatedAt: position.updatedAt, cursorSeq: position.seq }],
    ]);
    const sql = `SELECT ${PG_SESSION_COLUMNS} FROM sessions WHERE ${where.sql} ORDER BY updated_at DESC, seq DESC LIMIT @limit`;
    const rows = (await this.query(sql, { ...where.params, limit: query.limit + 1 })) as unknown as SessionRow[];
    const page = keysetPage(rows, query.limit);
    return { sessions: page.rows.map(entryFromRow), ...(page.last ? { nextCursor: encodeCursor(page.last) } : {}) };
  }

  async setLabel(sessionKey: string, rawLabel: string): Promise<SessionEntry> {
    const { key, agentId } = canonicalSessionKey(sessionKey);
    const label = checkLabel(rawLabel);
    const entry = await this.write(key, async (sql) => {
      const [row] = await sql(PG_SESSION_SQL.byKeyForUpdate, { key });
      if (!row) throw sessionNotFound(key);
      const found = entryFromRow(row as unknown as SessionRow);
      if (found.label !== label) {
        const [holder] = await sql(PG_SESSION_SQL.labelHolder, { agent: agentId, label });
        assertLabelFree({ agentId, labelHolder: () => holder?.session_key as string | undefined }, label, key);
        await sql(PG_SESSION_SQL.setLabel, { label, seq: row.seq });
        found.label = label;
      }
      return found;
    });
    return copyEntry(entry);
  }

  async resolveLabel(agentId: string, rawLabel: string): Promise<string | undefined> {
    const id = checkAgentId(agentId);
    const label = labelOrUndefined(rawLabel);
    if (label === undefined) return undefined;
    const [row] = await this.query(PG_SESSION_SQL.labelHolder, { agent: id, label });
    return row?.session_key as string | undefined;
  }

  isSpawnedBy(targetKey: string, ancestorKey: string): Promise<boolean> {
    return isSpawnedFrom(targetKey, ancestorKey, async (key) => (await this.facts(key))?.spawnedBy);
  }

  append(sessionKey: string, line: NewTranscriptLine, create?: SessionCreateOptions): Promise<TranscriptLine> {
    let input: AppendInput;
    try {
      input = appendInput(sessionKey, line, create, () => this.now());
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    const { key, agentId, wanted, line: full, json, at } = input;
    const written =
      wanted?.label === undefined
        ? this.write(key, () => this.appendAlone(input), 'statement')
        : this.write(key, async (sql) => {
            const appended = await appendPgLine(sql, key, agentId, at, wanted, full.role, json);
            const event = { agentId: appended.session.entry.agentId, sessionKey: key, sessionId: appended.session.entry.sessionId };
            // Sent at the commit: the other replicas' listeners hear of the line once it is stored.
            await sql('SELECT pg_notify(@channel, @payload)', { channel: APPEND_CHANNEL, payload: appendNotice(this.origin, event) });
            return appended;
          });
    return written.then((appended) => {
      this.remember(appended.session.seq, appended.session.entry);
      this.tails.appended(key, appended, full, json.length);
      this.tell({ agentId: appended.session.entry.agentId, sessionKey: key, sessionId: appended.session.entry.sessionId });
      return full;
    });
  }

  /** The common append (no label claimed): one statement, its notice built by the database, batched with others. */
  private appendAlone(input: AppendInput): Promise<AppendedLine> {
    return this.lone.submit({
      key: input.key,
      agentId: input.agentId,
      at: input.at,
      init: input.wanted,
      role: input.line.role,
      json: input.json,
      channel: APPEND_CHANNEL,
      origin: this.origin,
    });
  }

  async history(sessionKey: string, options: SessionHistoryOptions = {}): Promise<SessionHistory> {
    const { key } = canonicalSessionKey(sessionKey);
    const limit = checkLimit(options.limit, undefined);
    await this.settled(key);
    const facts = await this.facts(key);
    if (!facts) throw sessionNotFound(key);
    const skipTools = options.includeTools === false;
    const kept = this.tails.history(key, limit, skipTools);
    if (kept) return kept;
    let rows: LineRow[];
    if (limit === undefined) rows = (await this.allRows(facts.seq)).flat();
    else {
      const statement = skipTools ? PG_SESSION_SQL.tailWithoutTools : PG_SESSION_SQL.tail;
      rows = lineRows(await this.query(statement, { seq: facts.seq, limit })).reverse();
    }
    const read = parseLineRows(rows, skipTools);
    if (read.warnings.length) this.logger.warn(`session ${key}: ${read.warnings.join('; ')}`);
    return { lines: skipTools ? withoutTools(read.lines) : read.lines, warnings: read.warnings };
  }

  async *exportTranscript(sessionKey: string): AsyncIterable<string> {
    const { key } = canonicalSessionKey(sessionKey);
    await this.settled(key);
    const facts = await this.facts(key);
    if (!facts) throw sessionNotFound(key);
    for (let after = 0; ;) {
      const rows = lineRows(await this.query(PG_SESSION_SQL.linesAfter, { seq: facts.seq, after, limit: EXPORT_CHUNK_LINES }));
      if (rows.length) yield rows.map((r) => `${r.line}\n`).join('');
      if (rows.length < EXPORT_CHUNK_LINES) return;
      after = rows[rows.length - 1].id;
    }
  }

  async transcriptVersions(agentId: string): Promise<TranscriptVersion[]> {
    return versions(await this.query(PG_SESSION_SQL.versionsOfAgent, { agent: checkAgentId(agentId) }));
  }

  async transcriptVersion(agentId: string, sessionId: string): Promise<TranscriptVersion | undefined> {
    if (typeof sessionId !== 'string') return undefined;
    return versions(await this.query(PG_SESSION_SQL.versionOfSession, { agent: checkAgentId(agentId), id: sessionId }))[0];
  }

  onAppend(listener: (event: TranscriptAppended) => void): () => void {
    this.appendListeners.add(listener);
    return () => this.appendListeners.delete(listener);
  }

  /** Closed with the app, at its last hook (as the SQLite store is): what other modules write while stopping gets in. */
  onApplicationShutdown(): Promise<void> {
    return this.close();
  }

  /** Waits for the writes under way, then closes the pool; later calls fail. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.notices?.stop();
    await this.writes.drain();
    await this.lone.drained();
    await this.pool.end();
  }

  /** Overridable clock (tests). */
  protected now(): Date {
    return new Date();
  }

  private async readEntry(key: string): Promise<SessionEntry | undefined> {
    const [row] = await this.query(PG_SESSION_SQL.byKey, { key });
    if (!row) return undefined;
    const entry = entryFromRow(row as unknown as SessionRow);
    this.remember(row.seq as number, entry);
    return entry;
  }

  private async facts(key: string): Promise<FixedFacts | undefined> {
    const known = this.fixed.get(key);
    if (known) return known;
    await this.readEntry(key);
    return this.fixed.get(key);
  }

  private remember(seq: number, entry: SessionEntry): void {
    if (this.fixed.has(entry.sessionKey)) return;
    const facts: FixedFacts = { seq, agentId: entry.agentId, sessionId: entry.sessionId };
    if (entry.spawnedBy !== undefined) facts.spawnedBy = entry.spawnedBy;
    this.fixed.set(entry.sessionKey, facts);
  }

  private async allRows(seq: number): Promise<LineRow[][]> {
    const chunks: LineRow[][] = [];
    for (let after = 0; ;) {
      const rows = lineRows(await this.query(PG_SESSION_SQL.linesAfter, { seq, after, limit: EXPORT_CHUNK_LINES }));
      if (rows.length) chunks.push(rows);
      if (rows.length < EXPORT_CHUNK_LINES) return chunks;
      after = rows[rows.length - 1].id;
    }
  }

  private tell(event: TranscriptAppended): void {
    for (const listener of this.appendListeners) {
      try {
        listener(event);
      } catch (err) {
        this.logger.warn(`a transcript listener failed: ${(err as Error).message}`);
      }
    }
  }

  private async query(text: string, params: Readonly<Record<string, unknown>>): Promise<Array<Record<string, unknown>>> {
    if (this.closed) throw new Error('the session store is closed');
    return await namedQuery(this.pool, text, params);
  }

  /** Waits for the writes of `key` already requested in this process (their outcome is their callers' business). */
  private settled(key: string): Promise<void> {
    return this.writes.settled(key);
  }

  /** After the writes of the same session called before it: see PgSessionWriteQueue.run. */
  private write<T>(key: string, fn: (sql: Sql) => Promise<T>, as: 'transaction' | 'statement' = 'transaction'): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the session store is closed'));
    return this.writes.run(key, fn, as);
  }
}

function lineRows(rows: Array<Record<string, unknown>>): LineRow[] {
  return rows.map((r) => ({ id: r.n as number, line: r.line as string }));
}

function versions(rows: Array<Record<string, unknown>>): TranscriptVersion[] {
  return rows.map((r) => ({
    sessionKey: r.session_key as string,
    sessionId: r.session_id as string,
    updatedAt: r.updated_at as number,
    version: r.lines as number,
  }));
}
