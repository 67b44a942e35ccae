import * as path from 'node:path';
import { openSqlite, type SqliteDatabase } from '../../../common/storage/sqlite';
import type { ConfigChangeSource } from '../../../common/auth/config-actor';
import {
  addDecision,
  type AddOutcome,
  type AppliedRevision,
  type ConfigHistoryStore,
  type HistoryEntry,
  KEPT_REVISIONS,
  parseFiles,
  sameApplicationSql,
} from './config-history-store.port';

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

export function configHistoryDatabasePath(stateDir: string): string {
  return path.join(stateDir, 'config-history.sqlite');
}

/**
 * `<stateDir>/config-history.sqlite` (0600): every applied revision with the text of its files exactly as
 * they were (a `${VAR}` stays a reference, a literal secret stays literal — hence the private file), newest
 * last by `seq`. Rows beyond the newest KEPT_REVISIONS are deleted in the insert's transaction. One process owns
 * the state dir, so the duplicate check of the port (an application another replica recorded) never finds one in
 * practice: a process applies only content that differs from what it serves.
 */
export class SqliteConfigHistoryStore implements ConfigHistoryStore {
  private readonly db: SqliteDatabase;

  constructor(stateDir: string) {
    this.db = openSqlite(configHistoryDatabasePath(stateDir));
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
    CREATE INDEX IF NOT EXISTS revisions_by_revision ON revisions (revision, seq);
    CREATE INDEX IF NOT EXISTS revisions_by_content ON revisions (content_hash, seq);`);
  }

  add(entry: AppliedRevision): Promise<AddOutcome> {
    // Synchronous: nothing else of this process runs between the check and the write.
    const write = this.db.transaction((): AddOutcome => {
      const found = this.db.prepare(sameApplicationSql('revisions')).get({
        hash: entry.contentHash,
        previous: entry.previousHash ?? null,
      }) as { seq: number; source: ConfigChangeSource } | undefined;
      const outcome = addDecision(found?.source, entry.source);
      if (outcome === 'attributed')
        this.db
          .prepare('UPDATE revisions SET revision = ?, source = ?, subject = ? WHERE seq = ?')
          .run(entry.revision, entry.source, entry.subject, found!.seq);
      if (outcome !== 'added') return outcome;
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
      return outcome;
    });
    return Promise.resolve(write());
  }

  latest(): Promise<HistoryEntry | undefined> {
    return Promise.resolve(toEntry(this.db.prepare('SELECT * FROM revisions ORDER BY seq DESC LIMIT 1').get() as Row | undefined));
  }

  page(limit: number, beforeSeq?: number): Promise<HistoryEntry[]> {
    const rows = this.db
      .prepare('SELECT * FROM revisions WHERE seq < ? ORDER BY seq DESC LIMIT ?')
      .all(beforeSeq ?? Number.MAX_SAFE_INTEGER, limit) as Row[];
    return Promise.resolve(rows.map((r) => toEntry(r)!));
  }

  find(revision: string): Promise<{ entry: HistoryEntry; previous?: HistoryEntry } | undefined> {
    const entry = toEntry(
      this.db.prepare('SELECT * FROM revisions WHERE revision = ? ORDER BY seq DESC LIMIT 1').get(revision) as Row | undefined,
    );
    if (!entry) return Promise.resolve(undefined);
    const previous = toEntry(
      this.db.prepare('SELECT * FROM revisions WHERE seq < ? ORDER BY seq DESC LIMIT 1').get(entry.seq) as Row | undefined,
    );
    return Promise.resolve({ entry, previous });
  }

  close(): Promise<void> {
    if (this.db.open) this.db.close();
    return Promise.resolve();
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
    files: parseFiles(row.files),
  };
}
