/**
 * A reply longer than one chat message (Telegram 4096 characters, Discord 2000, Slack ~4000) cut into messages, at
 * the best boundary below the limit: a blank line between paragraphs, else a line end, else a space, else anywhere.
 * A cut inside a fenced code block closes the fence and opens it again, with its language, at the top of the next
 * piece, so each message renders on its own. Works on the Markdown: what a platform counts after rendering (e.g.
 * Telegram's text after HTML parsing) is never longer than the Markdown it came from, so a piece within the limit
 * stays within it once rendered. Each channel passes its platform's limit.
 */

const CLOSE_FENCE = '\n```';

export function splitMarkdown(text: string, limit: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    const window = limit - CLOSE_FENCE.length;
    const cut = bestCut(rest, window);
    let piece = rest.slice(0, cut).replace(/\s+$/, '');
    rest = rest.slice(cut).replace(/^\n+/, '');
    const open = openFence(piece);
    if (open !== undefined) {
      piece += CLOSE_FENCE;
      rest = `\`\`\`${open}\n${rest}`;
    }
    if (piece.trim()) pieces.push(piece);
  }
  if (rest.trim() || !pieces.length) pieces.push(rest);
  return pieces;
}

/** The position to cut `text` at, at most `max`. */
function bestCut(text: string, max: number): number {
  const window = text.slice(0, max + 1);
  const minimum = Math.floor(max / 2); // a boundary too early would make many tiny messages
  const paragraph = lastOutsideFence(window, /\n\s*\n/g);
  if (paragraph >= minimum) return paragraph;
  const line = window.lastIndexOf('\n');
  if (line >= minimum) return line + 1;
  const space = window.lastIndexOf(' ');
  if (space >= minimum) return space + 1;
  return max;
}

/** The end of the last match of `pattern` that is not inside a code block. */
function lastOutsideFence(window: string, pattern: RegExp): number {
  let best = -1;
  for (const match of window.matchAll(pattern)) {
    const at = match.index + match[0].length;
    if (at <= window.length - 1 && openFence(window.slice(0, match.index)) === undefined) best = at;
  }
  return best;
}

/** The language of the code fence left open at the end of `text` ('' for none given), or undefined. */
function openFence(text: string): string | undefined {
  let open: string | undefined;
  for (const line of text.split('\n')) {
    const fence = /^\s*```\s*([\w+#.-]*)\s*$/.exec(line);
    if (fence) open = open === undefined ? fence[1] : undefined;
  }
  return open;
}
