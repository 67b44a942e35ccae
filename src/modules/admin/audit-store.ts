import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Pool } from 'pg';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../common/fs/private-files';
import { createPostgresPool, migrate, positional, postgresStartError } from '../../common/storage/postgres';
import { type AuditEntry, type AuditPage, readAuditPage } from './audit-page';

/** Injection token of the module's AuditStore (the file or the PostgreSQL table, as `gateway.state` says). */
export const AUDIT_STORE = Symbol('AUDIT_STORE');

/** The audit log's file in the state dir. */
export function auditFilePath(stateDir: string): string {
  return path.join(stateDir, 'audit.jsonl');
}

/**
 * Where the audit log's lines are kept (docs/admin-security.md#9-audit-log): `<stateDir>/audit.jsonl`, or with
 * `gateway.state.backend: "postgres"` one table all replicas append to. Lines arrive already masked; a page is newest
 * first with a cursor (`next`) to pass as `before`, whose meaning is the store's own (a byte offset, a row position).
 */
export interface AuditStore {
  append(line: string): Promise<void>;
  page(limit: number, before?: number): Promise<AuditPage>;
  close(): Promise<void>;
}

/** The JSON Lines file: appended, never rewritten; a page reads it backwards (audit-page.ts). */
export class FileAuditStore implements AuditStore {
  constructor(readonly file: string) {}

  async append(line: string): Promise<void> {
    await fs.mkdir(path.dirname(this.file), { recursive: true, mode: PRIVATE_DIR_MODE });
    await fs.appendFile(this.file, line, { mode: PRIVATE_FILE_MODE });
  }

  page(limit: number, before?: number): Promise<AuditPage> {
    return readAuditPage(this.file, limit, before);
  }

  async close(): Promise<void> {}
}

const AUDIT_MIGRATIONS = [
  { version: 1, name: 'audit log', sql: 'CREATE TABLE audit_log (seq BIGSERIAL PRIMARY KEY, entry TEXT NOT NULL)' },
];

/**
 * The audit log in PostgreSQL: one row per line, in commit order by `seq`, so every replica's writes are one log and
 * a page is an index range however many rows there are. The cursor is the `seq` of the oldest entry returned.
 */
export class PgAuditStore implements AuditStore {
  /** The table made (the migrations applied); undefined until asked, and again after a failure. */
  private table?: Promise<void>;

  private constructor(
    private readonly pool: Pool,
    private readonly url: string,
  ) {}

  /** Connects and makes the table; a server it cannot reach fails here. */
  static async open(url: string): Promise<PgAuditStore> {
    const store = PgAuditStore.atFirstUse(url);
    try {
      await store.ready();
    } catch (err) {
      await store.close().catch(() => undefined);
      throw err;
    }
    return store;
  }

  /**
   * The store without asking the server yet: the table is made at the first entry or page, and tried again at the
   * next one when the server could not be reached. What the gateway uses, so the audit log never fails its start.
   */
  static atFirstUse(url: string): PgAuditStore {
    return new PgAuditStore(createPostgresPool(url, { max: 2 }), url);
  }

  async append(line: string): Promise<void> {
    await this.ready();
    await this.pool.query('INSERT INTO audit_log (entry) VALUES ($1)', [line.trimEnd()]);
  }

  async page(limit: number, before?: number): Promise<AuditPage> {
    await this.ready();
    // One row more than the page: whether older entries follow, without a count.
    const query = positional(
      'SELECT seq, entry FROM audit_log WHERE (@before::bigint IS NULL OR seq < @before::bigint) ORDER BY seq DESC LIMIT @limit',
      { before: before ?? null, limit: limit + 1 },
    );
    const rows = (await this.pool.query(query.text, query.values)).rows as Array<{ seq: number; entry: string }>;
    const shown = rows.slice(0, limit);
    return {
      entries: shown.map((row) => JSON.parse(row.entry) as AuditEntry),
      next: rows.length > limit ? shown[shown.length - 1].seq : null,
    };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  private ready(): Promise<void> {
    this.table ??= migrate(this.pool, 'admin-audit', AUDIT_MIGRATIONS).then(
      () => undefined,
      (err: unknown) => {
        this.table = undefined;
        throw postgresStartError(this.url, 'the audit log could not start', err);
      },
    );
    return this.table;
  }
}
