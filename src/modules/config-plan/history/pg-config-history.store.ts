import type { Pool, PoolClient } from 'pg';
import type { ConfigChangeSource } from '../../../common/auth/config-actor';
import {
  createPostgresPool,
  inTransaction,
  migrate,
  namedQuery,
  postgresStartError,
  type Migration,
} from '../../../common/storage/postgres';
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

/** The SQLite table's columns; `files` stays JSON text, as there (exact text, and no NUL restriction of jsonb). */
const CONFIG_HISTORY_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'config revisions',
    sql: `
CREATE TABLE config_revisions (
  seq BIGSERIAL PRIMARY KEY,
  revision TEXT NOT NULL,
  applied_at BIGINT NOT NULL,
  source TEXT NOT NULL,
  subject TEXT NOT NULL,
  summary TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  files TEXT NOT NULL
);
CREATE INDEX config_revisions_by_revision ON config_revisions (revision, seq);
CREATE INDEX config_revisions_by_content ON config_revisions (content_hash, seq);`,
  },
];

const SQL = {
  /** Every add of every replica takes turns, so the duplicate check and the insert are one step. */
  lock: `SELECT pg_advisory_xact_lock(hashtext('clawgate.config-history'), 0)`,
  same: sameApplicationSql('config_revisions'),
  attribute: 'UPDATE config_revisions SET revision = @revision, source = @source, subject = @subject WHERE seq = @seq',
  insert: `INSERT INTO config_revisions (revision, applied_at, source, subject, summary, content_hash, files)
    VALUES (@revision, @applied_at, @source, @subject, @summary, @content_hash, @files)`,
  // By position, not `MAX(seq) - kept`: a sequence may skip numbers (a transaction that rolled back took one).
  prune: `DELETE FROM config_revisions WHERE seq < (SELECT seq FROM config_revisions ORDER BY seq DESC OFFSET @skip LIMIT 1)`,
  latest: 'SELECT * FROM config_revisions ORDER BY seq DESC LIMIT 1',
  page: 'SELECT * FROM config_revisions WHERE (@before::bigint IS NULL OR seq < @before::bigint) ORDER BY seq DESC LIMIT @limit',
  byRevision: 'SELECT * FROM config_revisions WHERE revision = @revision ORDER BY seq DESC LIMIT 1',
  before: 'SELECT * FROM config_revisions WHERE seq < @seq ORDER BY seq DESC LIMIT 1',
};

type Row = Record<string, unknown>;
type Sql = (text: string, params: Readonly<Record<string, unknown>>) => Promise<Row[]>;

/**
 * The config history in PostgreSQL (scope `config-history`): one table for every replica, so each shows the same
 * history and a rollback can pick a revision another replica recorded. Each add is one transaction under an advisory
 * lock: every replica applies an edit of the shared config, and only the first records it (see ConfigHistoryStore).
 */
export class PgConfigHistoryStore implements ConfigHistoryStore {
  private constructor(private readonly pool: Pool) {}

  /** Connects and applies the migrations; a server it cannot reach fails here, naming the server only. */
  static async open(url: string): Promise<PgConfigHistoryStore> {
    const pool = createPostgresPool(url, { max: 2 });
    try {
      await migrate(pool, 'config-history', CONFIG_HISTORY_MIGRATIONS);
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw postgresStartError(url, 'the config history could not start', err);
    }
    return new PgConfigHistoryStore(pool);
  }

  add(entry: AppliedRevision): Promise<AddOutcome> {
    return this.transaction(async (sql) => {
      await sql(SQL.lock, {});
      const [found] = await sql(SQL.same, { hash: entry.contentHash, previous: entry.previousHash ?? null });
      const outcome = addDecision(found?.source as ConfigChangeSource | undefined, entry.source);
      if (outcome === 'attributed')
        await sql(SQL.attribute, { revision: entry.revision, source: entry.source, subject: entry.subject, seq: found.seq });
      if (outcome !== 'added') return outcome;
      await sql(SQL.insert, {
        revision: entry.revision,
        applied_at: entry.appliedAt.getTime(),
        source: entry.source,
        subject: entry.subject,
        summary: entry.summary,
        content_hash: entry.contentHash,
        files: JSON.stringify(entry.files),
      });
      await sql(SQL.prune, { skip: KEPT_REVISIONS - 1 });
      return outcome;
    });
  }

  async latest(): Promise<HistoryEntry | undefined> {
    const [row] = await this.query(SQL.latest, {});
    return row && toEntry(row);
  }

  async page(limit: number, beforeSeq?: number): Promise<HistoryEntry[]> {
    return (await this.query(SQL.page, { before: beforeSeq ?? null, limit })).map(toEntry);
  }

  async find(revision: string): Promise<{ entry: HistoryEntry; previous?: HistoryEntry } | undefined> {
    const [row] = await this.query(SQL.byRevision, { revision });
    if (!row) return undefined;
    const entry = toEntry(row);
    const [before] = await this.query(SQL.before, { seq: entry.seq });
    return { entry, previous: before && toEntry(before) };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  private async query(text: string, params: Readonly<Record<string, unknown>>): Promise<Row[]> {
    return await namedQuery(this.pool, text, params);
  }

  private async transaction<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    const client: PoolClient = await this.pool.connect();
    let broken = false;
    try {
      const sql: Sql = async (text, params) => {
        return await namedQuery(client, text, params);
      };
      return await inTransaction(client, () => fn(sql)).catch((err: unknown) => {
        broken = !(err as { code?: string }).code; // a driver error (no SQLSTATE): the connection may be unusable
        throw err;
      });
    } finally {
      client.release(broken);
    }
  }
}

function toEntry(row: Row): HistoryEntry {
  return {
    seq: row.seq as number,
    revision: row.revision as string,
    appliedAt: new Date(row.applied_at as number),
    source: row.source as ConfigChangeSource,
    subject: row.subject as string,
    summary: row.summary as string,
    contentHash: row.content_hash as string,
    files: parseFiles(row.files as string),
  };
}
