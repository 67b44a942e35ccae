/**
 * Transcript lines and their JSONL form: one JSON object per line. The store keeps each line as a row;
 * JSONL is how a transcript leaves it (export, memory collections) and how the earlier file layout stored
 * it (`<sessionId>.jsonl`, read once by the legacy import). Parsing never fails on content: a torn or
 * corrupt line is skipped and reported.
 */
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { badRequest } from '../../common/errors/app-error';
import type { NewTranscriptLine, TranscriptLine, TranscriptRole } from './session-store.port';

const ROLES: ReadonlySet<string> = new Set<TranscriptRole>(['user', 'assistant', 'tool', 'system']);

/** Where the file layout kept a transcript. */
export function transcriptPath(sessionsDir: string, sessionId: string): string {
  return path.join(sessionsDir, `${sessionId}.jsonl`);
}

/** Fills `id` and `ts` and checks the fields every reader relies on. */
export function buildLine(input: NewTranscriptLine, now: Date): TranscriptLine {
  if (typeof input !== 'object' || input === null) throw badRequest('a transcript line must be an object');
  if (!ROLES.has(input.role)) throw badRequest(`role must be one of user, assistant, tool, system (got ${JSON.stringify(input.role)})`);
  if (typeof input.text !== 'string') throw badRequest('text must be a string');
  if (input.toolCalls !== undefined && !Array.isArray(input.toolCalls)) throw badRequest('toolCalls must be an array');
  return { ...input, id: input.id ?? randomUUID(), ts: input.ts ?? now.toISOString() };
}

export interface ParsedTranscript {
  lines: TranscriptLine[];
  /** One per skipped line: `line <n>: <why>`. */
  warnings: string[];
  /** 1-based numbers of the skipped lines (for log de-duplication). */
  skipped: number[];
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
