/**
 * Splits indexed files into chunks of about CHUNK_TOKENS tokens with OVERLAP_TOKENS of overlap, cutting at
 * Markdown headings or paragraph starts when one is close enough, and keeping the 1-based line range of
 * each chunk so a citation points back into the file. Tokens are estimated as chars/4 (no tokenizer needed
 * for sizing). Transcripts contribute only user and assistant text, with their JSONL line numbers.
 */
export const CHUNK_TOKENS = 400;
export const OVERLAP_TOKENS = 80;
const CHARS_PER_TOKEN = 4;
/** Longer lines are cut into pieces of at most this many chars, so overlap can still take their tail. */
const MAX_PIECE_CHARS = OVERLAP_TOKENS * CHARS_PER_TOKEN;

export interface Chunk {
  startLine: number;
  endLine: number;
  text: string;
}

/** 2 = a heading starts here, 1 = a paragraph starts here, 0 = continues the previous segment's block. */
export type Boundary = 0 | 1 | 2;

/** The unit the chunker packs: a line, or a piece of a long line (`continues` the line before). */
export interface Segment {
  line: number;
  text: string;
  boundary: Boundary;
  continues?: boolean;
}

export interface ChunkOptions {
  maxTokens?: number;
  overlapTokens?: number;
}

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export function chunkFile(kind: 'markdown' | 'transcript', text: string, options?: ChunkOptions): Chunk[] {
  return chunkSegments(kind === 'transcript' ? transcriptSegments(text) : markdownSegments(text), options);
}

/** Lines of a Markdown file; blank lines separate paragraphs, `#` lines outside code fences are headings. */
export function markdownSegments(text: string): Segment[] {
  const out: Segment[] = [];
  let inFence = false;
  let paragraphStart = true;
  text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) {
      if (!inFence) paragraphStart = true;
      return;
    }
    const fence = /^\s{0,3}(```|~~~)/.test(line);
    const heading = !inFence && /^\s{0,3}#{1,6}(\s|$)/.test(line);
    const boundary: Boundary = heading ? 2 : paragraphStart || (fence && !inFence) ? 1 : 0;
    if (fence) inFence = !inFence;
    paragraphStart = heading; // the line after a heading starts its own block
    out.push(...pieces(i + 1, line.trimEnd(), boundary));
  });
  return out;
}

/** One segment per user/assistant message (`role: text`), numbered by its JSONL line; others are skipped. */
export function transcriptSegments(text: string): Segment[] {
  const out: Segment[] = [];
  text.split('\n').forEach((raw, i) => {
    if (!raw.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return; // a torn last line (write in progress) is picked up on the next change
    }
    if (typeof value !== 'object' || value === null) return;
    const { role, text: body } = value as { role?: unknown; text?: unknown };
    if ((role !== 'user' && role !== 'assistant') || typeof body !== 'string' || !body.trim()) return;
    out.push(...pieces(i + 1, `${role}: ${body.trim()}`, 1));
  });
  return out;
}

/** Cuts a long line at sentence ends (else spaces, else hard) into pieces of ≤ MAX_PIECE_CHARS. */
function pieces(line: number, text: string, boundary: Boundary): Segment[] {
  if (text.length <= MAX_PIECE_CHARS) return [{ line, text, boundary }];
  const out: Segment[] = [];
  let rest = text;
  while (rest.length > MAX_PIECE_CHARS) {
    const window = rest.slice(0, MAX_PIECE_CHARS);
    const sentence = Math.max(window.lastIndexOf('. '), window.lastIndexOf('! '), window.lastIndexOf('? '), window.lastIndexOf('\n'));
    const space = window.lastIndexOf(' ');
    const cut = sentence > MAX_PIECE_CHARS / 3 ? sentence + 1 : space > MAX_PIECE_CHARS / 3 ? space : MAX_PIECE_CHARS;
    out.push({ line, text: rest.slice(0, cut).trim(), boundary: out.length ? 0 : boundary, continues: out.length > 0 });
    rest = rest.slice(cut).trimStart();
  }
  if (rest) out.push({ line, text: rest, boundary: 0, continues: true });
  return out;
}

/**
 * Greedy packing: fill up to maxTokens; when the file goes on, move the cut back to the last heading (else
 * paragraph start) that still leaves the chunk at least half full; start the next chunk with the trailing
 * segments of this one that fit in overlapTokens.
 */
export function chunkSegments(segments: Segment[], options: ChunkOptions = {}): Chunk[] {
  const maxTokens = options.maxTokens ?? CHUNK_TOKENS;
  const overlapTokens = options.overlapTokens ?? OVERLAP_TOKENS;
  const cost = segments.map((s) => estimateTokens(s.text) + 1);
  const chunks: Chunk[] = [];
  let start = 0;
  while (start < segments.length) {
    let end = start;
    let used = 0;
    while (end < segments.length && (end === start || used + cost[end] <= maxTokens)) used += cost[end++];
    if (end < segments.length) end = snapCut(segments, cost, start, end, maxTokens / 2);
    chunks.push(toChunk(segments.slice(start, end)));
    if (end >= segments.length) break;
    let next = end;
    let overlap = 0;
    while (next - 1 > start && overlap + cost[next - 1] <= overlapTokens) overlap += cost[--next];
    start = next;
  }
  return chunks;
}

function snapCut(segments: Segment[], cost: number[], start: number, end: number, minTokens: number): number {
  const filled: number[] = [];
  let acc = 0;
  for (let k = start; k < end; k++) filled.push((acc += cost[k]));
  for (const wanted of [2, 1] as const) {
    for (let k = end; k > start; k--) {
      if (segments[k].boundary >= wanted && filled[k - start - 1] >= minTokens) return k;
    }
  }
  return end;
}

function toChunk(segments: Segment[]): Chunk {
  let text = '';
  segments.forEach((s, i) => {
    if (i > 0) text += s.continues ? ' ' : s.boundary > 0 ? '\n\n' : '\n';
    text += s.text;
  });
  return { startLine: segments[0].line, endLine: segments[segments.length - 1].line, text };
}
