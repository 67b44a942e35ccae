/**
 * Reading transcript lines back out of the session database: the last N of a session (history), or all of
 * them a chunk at a time (export). Shared by the store and the CLI, which reads a running gateway's
 * database without a store.
 */
import type { LineRow, SessionConnection } from './session-database';
import type { TranscriptLine } from './session-store.port';

/** Lines per export chunk (one indexed range read each). */
export const EXPORT_CHUNK_LINES = 1000;

export interface ReadLines {
  lines: TranscriptLine[];
  /** The JSON length of each of `lines`. */
  sizes: number[];
  /** Rows read, parsed or not: fewer than the limit asked for means the read reached the first line. */
  rows: number;
  /** A row that no longer parses (the database was edited by hand) is skipped and named here. */
  warnings: string[];
}

/** Oldest first: the last `limit` lines (all when unset); `skipTools` leaves out tool-result lines. */
export function readLines(c: SessionConnection, sessionSeq: number, options: { limit?: number; skipTools?: boolean }): ReadLines {
  let rows: LineRow[];
  if (options.limit === undefined) rows = [...rowChunks(c, sessionSeq)].flat();
  else {
    const statement = options.skipTools ? c.statements.tailWithoutTools : c.statements.tail;
    rows = (statement.all(sessionSeq, options.limit) as LineRow[]).reverse();
  }
  return parseLineRows(rows, options.skipTools);
}

/** Line rows (oldest first) as transcript lines; a row that does not parse is skipped and named in the warnings. */
export function parseLineRows(rows: readonly LineRow[], skipTools = false): ReadLines {
  const out: ReadLines = { lines: [], sizes: [], rows: rows.length, warnings: [] };
  for (const row of rows) {
    try {
      const line = JSON.parse(row.line) as TranscriptLine;
      if (skipTools && line.role === 'tool') continue;
      out.lines.push(line);
      out.sizes.push(row.line.length);
    } catch {
      out.warnings.push(`transcript row ${row.id} is not valid JSON; skipped`);
    }
  }
  return out;
}

/** The transcript as JSONL, oldest first, `EXPORT_CHUNK_LINES` lines per chunk. */
export function* exportLines(c: SessionConnection, sessionSeq: number): Generator<string> {
  for (const rows of rowChunks(c, sessionSeq)) yield rows.map((r) => `${r.line}\n`).join('');
}

/** Every line row of a session in id order, one indexed range read per chunk; never yields an empty chunk. */
function* rowChunks(c: SessionConnection, sessionSeq: number): Generator<LineRow[]> {
  for (let after = 0; ;) {
    const rows = c.statements.linesAfter.all(sessionSeq, after, EXPORT_CHUNK_LINES) as LineRow[];
    if (rows.length) yield rows;
    if (rows.length < EXPORT_CHUNK_LINES) return;
    after = rows[rows.length - 1].id;
  }
}
