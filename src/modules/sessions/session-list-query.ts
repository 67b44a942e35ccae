/**
 * Listing sessions most recently updated first, a page at a time. The order is (updatedAt, seq) descending
 * and a cursor is the position of the last entry of a page, so a page is one index range scan however many
 * sessions exist, and sessions created while a client pages (they sort before the cursor) never shift the
 * pages still to come: no entry is repeated or skipped.
 */
import { badRequest } from '../../common/errors/app-error';
import { decodePosition, encodePosition } from '../../common/text/position-token';
import { keysetPage, sqlFilter } from '../../common/storage/sql-filter';
import type { SqliteStatement } from '../../common/storage/sqlite';
import { LIST_COLUMNS, SessionConnection, SessionRow } from './session-database';

export interface ListQuery {
  /** One agent, or (undefined) any of `agentIds`. */
  agentId?: string;
  agentIds: readonly string[];
  label?: string;
  /** Epoch ms: only sessions updated at or after. */
  since?: number;
  cursor?: string;
  limit: number;
}

interface Position {
  updatedAt: number;
  seq: number;
}

export function encodeCursor(row: Pick<SessionRow, 'updated_at' | 'seq'>): string {
  return encodePosition(row.updated_at, row.seq);
}

export function decodeCursor(cursor: string): Position {
  const position = decodePosition(cursor);
  if (!position) throw badRequest('cursor is not one this endpoint issued (pass nextCursor from the previous page unchanged)');
  return { updatedAt: position.at, seq: position.seq };
}

/** Prepared statements per query shape (a handful of shapes exist; preparing costs more than running). */
const MAX_CACHED_SHAPES = 64;

export class SessionLister {
  private readonly statements = new Map<string, SqliteStatement>();

  constructor(private readonly connection: () => SessionConnection) {}

  page(query: ListQuery): { rows: SessionRow[]; nextCursor?: string } {
    if (query.agentId === undefined && !query.agentIds.length) return { rows: [] };
    const position = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const agents = Object.fromEntries(query.agentIds.map((id, i) => [`a${i}`, id]));
    const where = sqlFilter([
      query.agentId !== undefined
        ? ['agent_id = @agent', { agent: query.agentId }]
        : [
            `agent_id IN (${Object.keys(agents)
              .map((name) => `@${name}`)
              .join(', ')})`,
            agents,
          ],
      query.label !== undefined && ['label = @label', { label: query.label }],
      query.since !== undefined && ['updated_at >= @since', { since: query.since }],
      position && ['(updated_at, seq) < (@cursorUpdatedAt, @cursorSeq)', { cursorUpdatedAt: position.updatedAt, cursorSeq: position.seq }],
    ]);
    // Without a label the scan walks the recency index and stops after one page; a label matches at most
    // one session per agent, so its own index is the better start.
    const index =
      query.label !== undefined ? '' : query.agentId !== undefined ? 'INDEXED BY sessions_recent_by_agent' : 'INDEXED BY sessions_recent';
    const sql = `SELECT ${LIST_COLUMNS} FROM sessions ${index} WHERE ${where.sql} ORDER BY updated_at DESC, seq DESC LIMIT @limit`;
    const page = keysetPage(this.statement(sql).all({ ...where.params, limit: query.limit + 1 }) as SessionRow[], query.limit);
    return { rows: page.rows, ...(page.last ? { nextCursor: encodeCursor(page.last) } : {}) };
  }

  private statement(sql: string): SqliteStatement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= MAX_CACHED_SHAPES) this.statements.clear();
      statement = this.connection().db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
