/**
 * What the Bot API does with `parse_mode: "HTML"` (https://core.telegram.org/bots/api#html-style): only its tags,
 * only its four named entities and numeric ones; anything else is the "can't parse entities" error a real bot gets.
 * The message length limit counts the text after parsing, so the parser returns that text too.
 */
const TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'span',
  'tg-spoiler',
  'a',
  'code',
  'pre',
  'blockquote',
  'tg-emoji',
]);
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

export type ParsedHtml = { text: string } | { error: string };

export function parseTelegramHtml(html: string): ParsedHtml {
  let text = '';
  const open: string[] = [];
  let i = 0;
  const byteOffset = (at: number): number => Buffer.byteLength(html.slice(0, at));
  while (i < html.length) {
    const ch = html[i];
    if (ch === '<') {
      const end = html.indexOf('>', i);
      if (end < 0) return { error: `Bad Request: can't parse entities: Unclosed start tag at byte offset ${byteOffset(i)}` };
      const inner = html.slice(i + 1, end);
      const closing = inner.startsWith('/');
      const name = (closing ? inner.slice(1) : inner).trim().split(/\s+/)[0]?.toLowerCase() ?? '';
      if (!TAGS.has(name)) {
        return { error: `Bad Request: can't parse entities: Unsupported start tag "${name}" at byte offset ${byteOffset(i)}` };
      }
      if (closing) {
        if (open.pop() !== name) {
          return {
            error: `Bad Request: can't parse entities: Unmatched end tag at byte offset ${byteOffset(i)}, expected "</${open.at(-1) ?? ''}>", found "</${name}>"`,
          };
        }
      } else {
        if (name === 'a' && !/\bhref\s*=\s*"[^"]*"/.test(inner)) {
          return { error: `Bad Request: can't parse entities: Can't find end of the href attribute at byte offset ${byteOffset(i)}` };
        }
        open.push(name);
      }
      i = end + 1;
    } else if (ch === '&') {
      const end = html.indexOf(';', i);
      const entity = end > i ? html.slice(i + 1, end) : '';
      const numeric = /^#(\d+|x[0-9a-f]+)$/i.exec(entity);
      if (NAMED[entity] !== undefined) text += NAMED[entity];
      else if (numeric) text += String.fromCodePoint(Number(entity[1].toLowerCase() === 'x' ? `0${entity.slice(1)}` : entity.slice(1)));
      else return { error: `Bad Request: can't parse entities: Unsupported HTML entity at byte offset ${byteOffset(i)}` };
      i = end + 1;
    } else if (ch === '>') {
      // Telegram tolerates a bare '>' in text; the documentation asks for &gt; but the server accepts it.
      text += ch;
      i++;
    } else {
      text += ch;
      i++;
    }
  }
  if (open.length) return { error: `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "${open.at(-1)}"` };
  return { text };
}
