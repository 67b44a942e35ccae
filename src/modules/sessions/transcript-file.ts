/**
 * The `<sessionId>.jsonl` transcript format: one JSON object per line, append-only. Appends are one
 * `appendFile` of one whole line (O_APPEND), so a crash can at worst cut the last line short; readers skip
 * such a line and say so instead of failing the whole history.
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { badRequest } from '../../common/errors/app-error';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../common/fs/private-files';
import type { NewTranscriptLine, TranscriptLine, TranscriptRole } from './session-store.port';

const ROLES: ReadonlySet<string> = new Set<TranscriptRole>(['user', 'assistant', 'tool', 'system']);

export function transcriptPath(sessionsDir: string, sessionId: string): string {
  return path.join(sessionsDir, `${sessionId}.jsonl`);
}

/** Creates the file if missing without touching an existing one. */
export async function ensureTranscript(file: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  const handle = await fs.open(file, 'a', PRIVATE_FILE_MODE);
  await handle.close();
}

/** Fills `id` and `ts` and checks the fields every reader relies on. */
export function buildLine(input: NewTranscriptLine, now: Date): TranscriptLine {
  if (typeof input !== 'object' || input === null) throw badRequest('a transcript line must be an object');
  if (!ROLES.has(input.role)) throw badRequest(`role must be one of user, assistant, tool, system (got ${JSON.stringify(input.role)})`);
  if (typeof input.text !== 'string') throw badRequest('text must be a string');
  if (input.toolCalls !== undefined && !Array.isArray(input.toolCalls)) throw badRequest('toolCalls must be an array');
  return { ...input, id: input.id ?? randomUUID(), ts: input.ts ?? now.toISOString() };
}

/**
 * Appends one line. `repairTail`: the first append of this process checks that the file ends with a
 * newline; if an earlier crash left a torn last line, a newline is written first so the new line does not
 * get glued to the fragment (which would corrupt both).
 */
export async function appendLine(file: string, line: TranscriptLine, repairTail: boolean): Promise<{ repaired: boolean }> {
  let prefix = '';
  if (repairTail && !(await endsWithNewline(file))) prefix = '\n';
  await fs.appendFile(file, `${prefix}${JSON.stringify(line)}\n`, { encoding: 'utf8', mode: PRIVATE_FILE_MODE });
  return { repaired: prefix !== '' };
}

async function endsWithNewline(file: string): Promise<boolean> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw e;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return true;
    const buf = Buffer.alloc(1);
    await handle.read(buf, 0, 1, size - 1);
    return buf[0] === 0x0a;
  } finally {
    await handle.close();
  }
}

export interface ParsedTranscript {
  lines: TranscriptLine[];
  /** One per skipped line: `line <n>: <why>`. */
  warnings: string[];
  /** 1-based numbers of the skipped lines (for log de-duplication). */
  skipped: number[];
}

/** Reads the whole transcript; a missing file is an empty transcript (`missing`). Never throws on content. */
export async function readTranscript(file: string): Promise<ParsedTranscript & { missing: boolean }> {
  const text = await fs.readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return undefined;
    throw e;
  });
  return { ...parseTranscript(text ?? ''), missing: text === undefined };
}

/** Bytes read per step when reading a transcript backwards. */
const TAIL_CHUNK_BYTES = 64 * 1024;

/**
 * Reads only the end of a transcript: at least `minLines` complete lines when the file has them. A run
 * needs the recent conversation, not the whole history, and long-lived sessions grow without bound, so
 * reading the file whole on every turn would make each turn slower than the last. `complete` says whether
 * the read reached the start of the file.
 */
export async function readTranscriptTail(
  file: string,
  minLines: number,
): Promise<ParsedTranscript & { missing: boolean; complete: boolean }> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { ...parseTranscript(''), missing: true, complete: true };
    throw e;
  }
  try {
    const { size } = await handle.stat();
    let start = size;
    let buffer = Buffer.alloc(0);
    // Count newlines until the window holds minLines whole lines plus the boundary before them.
    while (start > 0 && countNewlines(buffer) <= minLines) {
      const next = Math.max(0, start - TAIL_CHUNK_BYTES);
      const chunk = Buffer.alloc(start - next);
      await handle.read(chunk, 0, chunk.length, next);
      buffer = Buffer.concat([chunk, buffer]);
      start = next;
    }
    let text = buffer.toString('utf8');
    if (start > 0) text = text.slice(text.indexOf('\n') + 1); // drop the partial first line of the window
    // A chunk holds far more lines than asked for; parse only the last ones (JSON.parse is the cost here).
    const lines = text.split('\n');
    const keep = minLines + 1; // + the empty piece after the final newline (or a torn last line)
    const cut = lines.length > keep;
    if (cut) text = lines.slice(-keep).join('\n');
    return { ...parseTranscript(text), missing: false, complete: !cut && start === 0 };
  } finally {
    await handle.close();
  }
}

function countNewlines(buffer: Buffer): number {
  let n = 0;
  for (let i = buffer.indexOf(0x0a); i !== -1; i = buffer.indexOf(0x0a, i + 1)) n++;
  return n;
}

export function parseTranscript(text: string): ParsedTranscript {
  const out: ParsedTranscript = { lines: [], warnings: [], skipped: [] };
  const raw = text.split('\n');
  raw.forEach((source, i) => {
    const content = source.trim();
    if (!content) return;
    const n = i + 1;
    const torn = i === raw.length - 1; // no newline after it: the write was cut short
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch {
      out.skipped.push(n);
      out.warnings.push(`line ${n}: ${torn ? 'incomplete last line (interrupted write)' : 'not valid JSON'}; skipped`);
      return;
    }
    const problem = lineProblem(value);
    if (problem) {
      out.skipped.push(n);
      out.warnings.push(`line ${n}: ${problem}; skipped`);
      return;
    }
    out.lines.push(value as TranscriptLine);
  });
  return out;
}

function lineProblem(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not a JSON object';
  const line = v as Record<string, unknown>;
  if (typeof line.id !== 'string' || typeof line.ts !== 'string') return 'missing id or ts';
  if (typeof line.role !== 'string' || !ROLES.has(line.role)) return `unknown role ${JSON.stringify(line.role)}`;
  if (typeof line.text !== 'string') return 'missing text';
  return undefined;
}

/** The `includeTools: false` view: no tool-result lines, no tool calls on the others. */
export function withoutTools(lines: TranscriptLine[]): TranscriptLine[] {
  return lines
    .filter((l) => l.role !== 'tool')
    .map((l) => {
      if (l.toolCalls === undefined) return l;
      const { toolCalls: _dropped, ...rest } = l;
      return rest;
    });
}
