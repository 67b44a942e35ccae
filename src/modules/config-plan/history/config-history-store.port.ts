import type { ConfigChangeSource } from '../../../common/auth/config-actor';

/** How many applied revisions are kept; older ones are deleted as new ones arrive. */
export const KEPT_REVISIONS = 100;

/** One file of an applied revision: its path relative to the config directory (the root first) and its text as written. */
export interface HistoryFile {
  path: string;
  text: string;
}

export interface HistoryEntry {
  seq: number;
  revision: string;
  appliedAt: Date;
  source: ConfigChangeSource;
  subject: string;
  summary: string;
  contentHash: string;
  files: HistoryFile[];
}

/** What a process applied: the entry, and the content hash it replaced (none at start). */
export interface AppliedRevision extends Omit<HistoryEntry, 'seq'> {
  previousHash?: string;
}

/**
 * What `add` did: `added` a row; found the application `recorded` already (by another replica that applied the
 * same change); or found it recorded as a file edit and `attributed` it to this one's caller.
 */
export type AddOutcome = 'added' | 'recorded' | 'attributed';

/** Injection token of the module's ConfigHistoryStore (the SQLite or the PostgreSQL one, as `gateway.state` says). */
export const CONFIG_HISTORY_STORE = Symbol('CONFIG_HISTORY_STORE');

/**
 * The config history: `<stateDir>/config-history.sqlite` (sqlite-config-history.store.ts), or with
 * `gateway.state.backend: "postgres"` one table every replica records into (pg-config-history.store.ts). Newest last
 * by `seq`; rows beyond the newest KEPT_REVISIONS are deleted as rows are added.
 *
 * An application is recorded at most once however many processes apply it (replicas watching the same file each
 * apply every edit): see `sameApplicationSql`. When the row found is a plain file edit and the new one names a caller
 * (admin API, rollback, CLI), the row takes the new source, subject and revision: the replica that made the write
 * knows who did, and its answer named that revision (replicas whose state dirs differ in path name the same files
 * with different revisions, since the normalized config holds state-dir paths).
 */
export interface ConfigHistoryStore {
  add(entry: AppliedRevision): Promise<AddOutcome>;
  latest(): Promise<HistoryEntry | undefined>;
  /** Newest first, before the entry `beforeSeq` (exclusive) when given. */
  page(limit: number, beforeSeq?: number): Promise<HistoryEntry[]>;
  /** The latest application of `revision` (a rollback applies a revision again), and the entry before it. */
  find(revision: string): Promise<{ entry: HistoryEntry; previous?: HistoryEntry } | undefined>;
  close(): Promise<void>;
}

/**
 * The row that already records this application, if any (`@hash`: its content hash, `@previous`: the hash it
 * replaced, or null): a row with the same content after the newest row of the replaced content — that is, the same
 * change, recorded by a process that applied it first. A replica that is behind (it applies R1 after another already
 * recorded R1 and then R2) so finds R1 and adds nothing. When the replaced content has no row (a comment-only edit is
 * applied without a record; nothing before a first start), only the newest row counts. A rollback to an older
 * revision replaces the newest content, so no row after it matches: it is recorded.
 */
export function sameApplicationSql(table: string): string {
  return `SELECT seq, source FROM ${table} WHERE content_hash = @hash AND seq > COALESCE(
      (SELECT MAX(seq) FROM ${table} WHERE content_hash = @previous),
      (SELECT MAX(seq) FROM ${table}) - 1)
    ORDER BY seq LIMIT 1`;
}

/** What `add` does once `sameApplicationSql` answered (`found`: that row's source). */
export function addDecision(found: ConfigChangeSource | undefined, next: ConfigChangeSource): AddOutcome {
  if (found === undefined) return 'added';
  return found === 'file' && next !== 'file' ? 'attributed' : 'recorded';
}

/** The row's JSON column of files. */
export function parseFiles(text: string): HistoryFile[] {
  return JSON.parse(text) as HistoryFile[];
}
