/**
 * Listing sessions most recently updated first, a page at a time. The order is (updatedAt, seq) descending
 * and a cursor is the position of the last entry of a page, so a page is one index range scan however many
 * sessions exist, and sessions created while a client pages (they sort before the cursor) never shift the
 * pages still to come: no entry is repeated or skipped.
 */
import { badRequest } from '../../common/errors/app-error';
import { decodePosition, encodePosition } from '../../common/text/position-token';
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
    const where: string[] = [];
    const params: Record<string, unknown> = { limit: query.limit + 1 };
    if (query.agentId !== undefined) {
      where.push('agent_id = @agent');
      params.agent = query.agentId;
    } else {
      const names = query.agentIds.map((id, i) => {
        params[`a${i}`] = id;
        return `@a${i}`;
      });
      where.push(`agent_id IN (${names.join(', ')})`);
    }
    if (query.label !== undefined) {
      where.push('label = @label');
      params.label = query.label;
    }
    if (query.since !== undefined) {
      where.push('updated_at >= @since');
      params.since = query.since;
    }
    if (position) {
      where.push('(updated_at, seq) < (@cursorUpdatedAt, @cursorSeq)');
      params.cursorUpdatedAt = position.updatedAt;
      params.cursorSeq = position.seq;
    }
    // Without a label the scan walks the recency index and stops after one page; a label matches at most
    // one session per agent, so its own index is the better start.
    const index =
      query.label !== undefined ? '' : query.agentId !== undefined ? 'INDEXED BY sessions_recent_by_agent' : 'INDEXED BY sessions_recent';
    const sql = `SELECT ${LIST_COLUMNS} FROM sessions ${index} WHERE ${where.join(' AND ')} ORDER BY updated_at DESC, seq DESC LIMIT @limit`;
    const rows = this.statement(sql).all(params) as SessionRow[];
    if (rows.length <= query.limit) return { rows };
    rows.length = query.limit;
    return { rows, nextCursor: encodeCursor(rows[rows.length - 1]) };
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
