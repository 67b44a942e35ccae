import { promises as fs } from 'node:fs';

/** One line of `<stateDir>/audit.jsonl` (docs/admin-security.md#9-audit-log). */
export interface AuditEntry {
  ts: string;
  subject: string;
  role: string;
  ip: string | null;
  method: string;
  path: string;
  status: number;
  revision: string;
}

export interface AuditPage {
  /** Newest first. */
  entries: AuditEntry[];
  /** Pass as `before` to get the next (older) page; null when this page reached the start of the log. */
  next: number | null;
}

const CHUNK = 64 * 1024;
const NEWLINE = 0x0a;

/**
 * Reads up to `limit` entries ending before byte offset `before` (default: end of file), newest first, by
 * reading the file backwards in chunks — a page costs the same however long the log has grown. The cursor
 * is the byte offset where the oldest returned line starts: stable, because the file is append-only.
 * Lines that do not parse (a write torn by a crash) are skipped. Splitting on the newline byte is safe
 * inside UTF-8: 0x0a never occurs within a multi-byte character.
 */
export async function readAuditPage(file: string, limit: number, before?: number): Promise<AuditPage> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], next: null };
    throw err;
  }
  try {
    const size = (await handle.stat()).size;
    let pos = Math.min(before ?? size, size); // bytes before `pos` are still unread
    let pending = Buffer.alloc(0); // bytes [pos, pos + pending.length): an unfinished line at the front
    const entries: AuditEntry[] = [];
    let oldest = pos;
    while (entries.length < limit && (pos > 0 || pending.length > 0)) {
      if (pos > 0) {
        const start = Math.max(0, pos - CHUNK);
        const chunk = Buffer.alloc(pos - start);
        await handle.read(chunk, 0, chunk.length, start);
        pending = Buffer.concat([chunk, pending]);
        pos = start;
      }
      let end = pending.length; // exclusive end of the line being cut off the back
      for (let i = pending.length - 1; i >= -1 && entries.length < limit; i--) {
        const boundary = i === -1 ? pos === 0 : pending[i] === NEWLINE;
        if (!boundary) continue;
        if (i + 1 < end) {
          const entry = parseEntry(pending.subarray(i + 1, end));
          if (entry) {
            entries.push(entry);
            oldest = pos + i + 1;
          }
        }
        end = i;
      }
      pending = pending.subarray(0, Math.max(end, 0));
      if (pos === 0 && end <= 0) break;
    }
    return { entries, next: entries.length === limit && oldest > 0 ? oldest : null };
  } finally {
    await handle.close();
  }
}

function parseEntry(line: Buffer): AuditEntry | undefined {
  try {
    const value = JSON.parse(line.toString('utf8')) as AuditEntry;
    return value && typeof value === 'object' && typeof value.ts === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
