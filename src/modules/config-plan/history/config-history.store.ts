import * as path from 'node:path';
import { openSqlite, type SqliteDatabase } from '../../../common/storage/sqlite';
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

interface Row {
  seq: number;
  revision: string;
  applied_at: number;
  source: ConfigChangeSource;
  subject: string;
  summary: string;
  content_hash: string;
  files: string;
}

/**
 * `<stateDir>/config-history.sqlite` (0600): every applied revision with the text of its files exactly as
 * they were (a `${VAR}` stays a reference, a literal secret stays literal — hence the private file), newest
 * last by `seq`. Rows beyond the newest KEPT_REVISIONS are deleted in the insert's transaction.
 */
export class ConfigHistoryStore {
  private readonly db: SqliteDatabase;

  constructor(stateDir: string) {
    this.db = openSqlite(path.join(stateDir, 'config-history.sqlite'));
    this.db.pragma('journal_mode = WAL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS revisions (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      revision TEXT NOT NULL,
      applied_at INTEGER NOT NULL,
      source TEXT NOT NULL,
      subject TEXT NOT NULL,
      summary TEXT NOT NULL,
      content_hash TEXT NOT NULL,
      files TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS revisions_by_revision ON revisions (revision, seq);`);
  }

  add(entry: Omit<HistoryEntry, 'seq'>): void {
    this.db.transaction(() => {
      this.db
        .prepare('INSERT INTO revisions (revision, applied_at, source, subject, summary, content_hash, files) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(
          entry.revision,
          entry.appliedAt.getTime(),
          entry.source,
          entry.subject,
          entry.summary,
          entry.contentHash,
          JSON.stringify(entry.files),
        );
      this.db.prepare('DELETE FROM revisions WHERE seq <= (SELECT MAX(seq) FROM revisions) - ?').run(KEPT_REVISIONS);
    })();
  }

  latest(): HistoryEntry | undefined {
    return toEntry(this.db.prepare('SELECT * FROM revisions ORDER BY seq DESC LIMIT 1').get() as Row | undefined);
  }

  /** Newest first, after the entry `beforeSeq` (exclusive) when given. */
  page(limit: number, beforeSeq?: number): HistoryEntry[] {
    const rows = this.db
      .prepare('SELECT * FROM revisions WHERE seq < ? ORDER BY seq DESC LIMIT ?')
      .all(beforeSeq ?? Number.MAX_SAFE_INTEGER, limit) as Row[];
    return rows.map((r) => toEntry(r)!);
  }

  /** The latest application of `revision` (a rollback applies a revision again), and the entry before it. */
  find(revision: string): { entry: HistoryEntry; previous?: HistoryEntry } | undefined {
    const entry = toEntry(
      this.db.prepare('SELECT * FROM revisions WHERE revision = ? ORDER BY seq DESC LIMIT 1').get(revision) as Row | undefined,
    );
    if (!entry) return undefined;
    const previous = toEntry(
      this.db.prepare('SELECT * FROM revisions WHERE seq < ? ORDER BY seq DESC LIMIT 1').get(entry.seq) as Row | undefined,
    );
    return { entry, previous };
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

function toEntry(row: Row | undefined): HistoryEntry | undefined {
  if (!row) return undefined;
  return {
    seq: row.seq,
    revision: row.revision,
    appliedAt: new Date(row.applied_at),
    source: row.source,
    subject: row.subject,
    summary: row.summary,
    contentHash: row.content_hash,
    files: JSON.parse(row.files) as HistoryFile[],
  };
}
