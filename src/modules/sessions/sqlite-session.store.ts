import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { GroupCommit } from '../../common/storage/group-commit';
import { WalCheckpointer } from '../../common/storage/wal-checkpointer';
import { ConfigStore } from '../config';
import { importLegacyLayout } from './legacy-layout-import';
import {
  createSession,
  entryFromRow,
  insertLine,
  labelHolders,
  openSessionDatabase,
  sessionDatabasePath,
  SessionConnection,
  SessionRow,
  StoredSession,
  transcriptVersions,
} from './session-database';
import { assertLabelFree, copyEntry, sessionNotFound } from './session-entry-rules';
import { checkSessionInit, initChanges, upsertSession, UpsertedSession } from './session-upsert';
import { exportLines, readLines } from './session-lines';
import { SessionTail } from './session-tail';
import { SessionLister } from './session-list-query';
import { canonicalSessionKey, checkAgentId, checkLabel, checkLimit, labelOrUndefined } from './session-input';
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
import { withoutTools } from './transcript-jsonl';
import { appendInput, isSpawnedFrom, type AppendInput } from './session-append-input';

/** Sessions whose entry is kept in memory (a few hundred bytes each). */
const ENTRY_CACHE_SIZE = 20_000;
/** Sessions whose recent lines are kept in memory (each within TAIL_LINES and TAIL_BYTES). */
const TAIL_CACHE_SIZE = 1_000;

/** A committed session: its row number and its entry (live object: copy before handing out). */
type Known = StoredSession;

/**
 * The embedded SessionStore: sessions and transcript lines in one SQLite database (session-database.ts),
 * every write through a group commit — the writes of one event-loop turn share one WAL commit, and a write's
 * promise settles only after that commit, so whatever a caller was told is stored survives a kill -9.
 * Writes run in call order, so one session's lines keep the order they were appended in.
 *
 * Reads are synchronous index lookups, with two bounded caches in front: committed entries (so a run does
 * not query its session row again) and each active session's last lines (so a turn's history is answered
 * from memory; a brand-new session is known to be empty). Both caches change only after a commit, so they
 * never show what the disk does not have. Layout and guarantees: docs/sessions.md#session-store.
 */
@Injectable()
export class SqliteSessionStore implements SessionStore, OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('sessions');
  private conn?: SessionConnection;
  private checkpointer?: WalCheckpointer;
  private closed = false;
  private readonly commits = new GroupCommit(() => this.connection().db);
  private readonly lister = new SessionLister(() => this.connection());
  private readonly known = new LRUCache<string, Known>({ max: ENTRY_CACHE_SIZE });
  private readonly tails = new LRUCache<string, SessionTail>({ max: TAIL_CACHE_SIZE });
  /** The latest write submitted per session, so reads can wait for what was requested before them. */
  private readonly lastWrite = new Map<string, Promise<unknown>>();
  private readonly appendListeners = new Set<(event: TranscriptAppended) => void>();

  constructor(private readonly config: ConfigStore) {}

  /** Opens the database at boot, so the one-time import of the file layout never runs inside a request. */
  onModuleInit(): void {
    this.connection();
  }

  async get(sessionKey: string): Promise<SessionEntry | undefined> {
    const { key } = canonicalSessionKey(sessionKey);
    // Read-your-writes: a session whose creating append is still being committed exists for its caller.
    if (this.lastWrite.has(key)) await this.settled(key);
    const known = this.lookup(key);
    return known && copyEntry(known.entry);
  }

  async getOrCreate(sessionKey: string, init: SessionCreateOptions = {}): Promise<SessionEntry> {
    const { key, agentId } = canonicalSessionKey(sessionKey);
    const wanted = checkSessionInit(init, key);
    // Only the cache is asked here: on a miss the write below looks the row up anyway, and for the new
    // session of a message (the common miss) a query now would be a second index probe for nothing.
    // A write of this session still pending may change what the cache says: then the write below decides.
    const current = this.lastWrite.has(key) ? undefined : this.known.get(key);
    if (current && !initChanges(current, wanted)) return copyEntry(current.entry);
    const at = this.now().getTime();
    const result = await this.write(key, (c) => upsertSession(c, key, agentId, at, wanted));
    this.known.set(key, { seq: result.seq, entry: result.entry });
    if (result.created) this.tails.set(key, SessionTail.empty());
    return copyEntry(result.entry);
  }

  async list(filter: SessionListFilter = {}): Promise<SessionEntry[]> {
    return (await this.page(filter)).sessions;
  }

  async page(filter: SessionPageFilter = {}): Promise<SessionPage> {
    const query = checkPageFilter(filter, this.now().getTime(), () => [...this.config.current().agentsById.keys()]);
    if (!query) return { sessions: [] };
    const { rows, nextCursor } = this.lister.page(query);
    return { sessions: rows.map(entryFromRow), ...(nextCursor ? { nextCursor } : {}) };
  }

  async setLabel(sessionKey: string, rawLabel: string): Promise<SessionEntry> {
    const { key, agentId } = canonicalSessionKey(sessionKey);
    const label = checkLabel(rawLabel);
    const result = await this.write(key, (c) => {
      const row = c.statements.byKey.get(key) as SessionRow | undefined;
      if (!row) throw sessionNotFound(key);
      const entry = entryFromRow(row);
      if (entry.label !== label) {
        assertLabelFree(labelHolders(c, agentId), label, key);
        c.statements.setLabel.run(label, row.seq);
        entry.label = label;
      }
      return { seq: row.seq, entry };
    });
    this.known.set(key, result);
    return copyEntry(result.entry);
  }

  async resolveLabel(agentId: string, rawLabel: string): Promise<string | undefined> {
    const id = checkAgentId(agentId);
    const label = labelOrUndefined(rawLabel);
    if (label === undefined) return undefined;
    return labelHolders(this.connection(), id).labelHolder(label);
  }

  isSpawnedBy(targetKey: string, ancestorKey: string): Promise<boolean> {
    return isSpawnedFrom(targetKey, ancestorKey, (key) => this.lookup(key)?.entry.spawnedBy);
  }

  append(sessionKey: string, line: NewTranscriptLine, create?: SessionCreateOptions): Promise<TranscriptLine> {
    let input: AppendInput;
    try {
      input = appendInput(sessionKey, line, create, () => this.now());
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    const { key, agentId, wanted, line: full, json, at } = input;
    // Sessions are never deleted, so a row number once known stays right.
    const cached = this.known.peek(key);
    // Creation options are applied in the write, as getOrCreate would, unless the committed entry already has them.
    const upsert = wanted !== undefined && (!cached || this.lastWrite.has(key) || initChanges(cached, wanted)) ? wanted : undefined;
    return this.write(key, (c) => {
      let session: UpsertedSession | undefined;
      let seq = upsert ? undefined : (cached?.seq ?? (c.statements.byKey.get(key) as SessionRow | undefined)?.seq);
      if (seq === undefined) {
        session = upsert ? upsertSession(c, key, agentId, at, upsert) : { created: true, ...createSession(c, key, agentId, at, {}) };
        seq = session.seq;
      }
      insertLine(c, seq, full.role, json);
      // A session created by this write was updated `at` already.
      if (!session?.created) c.statements.touch.run(at, seq, at);
      return session;
    }).then((session) => {
      this.afterAppend(key, full, json.length, at, session);
      return full;
    });
  }

  async history(sessionKey: string, options: SessionHistoryOptions = {}): Promise<SessionHistory> {
    const { key } = canonicalSessionKey(sessionKey);
    const limit = checkLimit(options.limit, undefined);
    // Read-your-writes: appends already requested for this session land before we read. Awaited only when there
    // are some: a run reads its history right after its own line committed, with nothing pending.
    const pending = this.lastWrite.get(key);
    if (pending) await pending.catch(() => undefined);
    const known = this.lookup(key);
    if (!known) throw sessionNotFound(key);
    const view = options.includeTools === false ? withoutTools : (lines: TranscriptLine[]) => lines;

    const tail = this.tails.get(key);
    if (tail) {
      const lines = view([...tail.lines]);
      if (tail.complete) return { lines: limit === undefined ? lines : lines.slice(-limit), warnings: [] };
      if (limit !== undefined && lines.length >= limit) return { lines: lines.slice(-limit), warnings: [] };
    }
    const read = readLines(this.connection(), known.seq, { limit, skipTools: options.includeTools === false });
    if (read.warnings.length) this.logger.warn(`session ${key}: ${read.warnings.join('; ')}`);
    // Only a clean raw read becomes the cached tail: a skipped row would make it look shorter than the transcript.
    if (options.includeTools !== false && limit !== undefined && !read.warnings.length) {
      this.tails.set(key, SessionTail.of(read.lines, read.sizes, read.rows < limit));
    }
    return { lines: view(read.lines), warnings: read.warnings };
  }

  async *exportTranscript(sessionKey: string): AsyncIterable<string> {
    const { key } = canonicalSessionKey(sessionKey);
    await this.settled(key);
    const known = this.lookup(key);
    if (!known) throw sessionNotFound(key);
    // A chunk per iteration: a long transcript never holds the event loop for its whole length.
    for (const chunk of exportLines(this.connection(), known.seq)) {
      yield chunk;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async transcriptVersions(agentId: string): Promise<TranscriptVersion[]> {
    return transcriptVersions(this.connection(), checkAgentId(agentId));
  }

  async transcriptVersion(agentId: string, sessionId: string): Promise<TranscriptVersion | undefined> {
    return transcriptVersions(this.connection(), checkAgentId(agentId), sessionId)[0];
  }

  onAppend(listener: (event: TranscriptAppended) => void): () => void {
    this.appendListeners.add(listener);
    return () => this.appendListeners.delete(listener);
  }

  /** Commits what is pending and waits for it. Called on shutdown; tests call it to settle the disk. */
  async flush(): Promise<void> {
    if (this.closed) return;
    this.commits.flush();
    await Promise.allSettled([...this.lastWrite.values()]);
  }

  /**
   * The last lifecycle hook (after every module's onModuleDestroy and the HTTP server's close), so writes
   * that other modules make while stopping still reach the disk before the database closes.
   */
  async onApplicationShutdown(): Promise<void> {
    await this.flush();
    this.closed = true;
    await this.checkpointer?.stop();
    this.conn?.db.close();
    this.conn = undefined;
  }

  /** Overridable clock (tests). */
  protected now(): Date {
    return new Date();
  }

  private connection(): SessionConnection {
    if (this.closed) throw new Error('the session store is closed');
    if (this.conn) return this.conn;
    const file = sessionDatabasePath(this.config.stateDir);
    const conn = openSessionDatabase(file);
    try {
      const imported = importLegacyLayout(conn, this.config.stateDir);
      for (const problem of imported.problems) this.logger.warn(problem);
      if (imported.agents) {
        this.logger.log(
          `migrated ${imported.sessions} session(s) with ${imported.lines} transcript line(s) of ${imported.agents} agent(s) from the file layout into ${file}`,
        );
      }
    } catch (err) {
      conn.db.close();
      throw err;
    }
    this.conn = conn;
    this.checkpointer = new WalCheckpointer(conn.db, file, (message) => this.logger.warn(`checkpoint of ${file} failed: ${message}`));
    return conn;
  }

  /** The committed session, from the cache or its row. */
  private lookup(key: string): Known | undefined {
    const cached = this.known.get(key);
    if (cached) return cached;
    const row = this.connection().statements.byKey.get(key) as SessionRow | undefined;
    if (!row) return undefined;
    const known = { seq: row.seq, entry: entryFromRow(row) };
    this.known.set(key, known);
    return known;
  }

  private write<T>(key: string, fn: (c: SessionConnection) => T): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the session store is closed'));
    const run = this.commits.run(() => fn(this.connection()));
    this.lastWrite.set(key, run);
    const forget = () => {
      if (this.lastWrite.get(key) === run) this.lastWrite.delete(key);
    };
    run.then(forget, forget);
    return run;
  }

  /** Waits for the writes already requested for `key` (their outcome is their callers' business). */
  private async settled(key: string): Promise<void> {
    await this.lastWrite.get(key)?.catch(() => undefined);
  }

  /**
   * Brings the caches in line with a committed append and tells the listeners. `session`: the row the append
   * created or updated (its entry as committed), when it did.
   */
  private afterAppend(key: string, line: TranscriptLine, size: number, at: number, session: UpsertedSession | undefined): void {
    if (session) this.known.set(key, { seq: session.seq, entry: session.entry });
    if (session?.created) {
      const tail = SessionTail.empty();
      tail.push(line, size);
      this.tails.set(key, tail);
    } else {
      const entry = this.known.peek(key)?.entry;
      const updatedAt = new Date(at).toISOString();
      if (entry && entry.updatedAt < updatedAt) entry.updatedAt = updatedAt;
      this.tails.peek(key)?.push(line, size);
    }
    if (!this.appendListeners.size) return;
    const stored = session ?? this.lookup(key);
    if (!stored) return;
    const event = { agentId: stored.entry.agentId, sessionKey: key, sessionId: stored.entry.sessionId };
    for (const listener of this.appendListeners) {
      try {
        listener(event);
      } catch (err) {
        this.logger.warn(`a transcript listener failed: ${(err as Error).message}`);
      }
    }
  }
}
