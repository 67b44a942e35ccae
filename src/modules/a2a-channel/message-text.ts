import { MAX_MESSAGE_BYTES, TRUNCATION_MARKER } from './a2a-limits';
import { invalidParams } from './json-rpc';

/**
 * The text an agent receives for an A2A message: `text` parts as they are, `data` parts as compact
 * JSON, in part order, joined with `\n`. `url`/`raw`/`file` parts are ignored: the agent runtime works on text
 * and the gateway never fetches a URL a peer chose. Parts are read in both the 1.0 shape (`{text}`, `{data}`)
 * and the 0.3 shape (`{kind: "text", text}`), which carry the content under the same field names.
 * Described in docs/a2a.md#sending-tasks.
 */
export function extractMessageText(parts: readonly unknown[]): string {
  const pieces: string[] = [];
  parts.forEach((part, i) => {
    if (typeof part !== 'object' || part === null || Array.isArray(part)) throw invalidParams(`message.parts[${i}] must be an object`);
    const p = part as Record<string, unknown>;
    if (p.text !== undefined) {
      if (typeof p.text !== 'string') throw invalidParams(`message.parts[${i}].text must be a string`);
      pieces.push(p.text);
    } else if (p.data !== undefined) {
      pieces.push(JSON.stringify(p.data));
    }
  });
  if (!pieces.length) throw invalidParams('message.parts has no text or data part (url and raw parts are not read)');
  const text = pieces.join('\n');
  if (!text.trim()) throw invalidParams('message has no text');
  return text;
}

/**
 * Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character, then appends the marker
 * (so the result is at most `maxBytes` + marker bytes). Text within the limit is returned unchanged.
 */
export function truncateUtf8(text: string, maxBytes = MAX_MESSAGE_BYTES): { text: string; truncated: boolean } {
  // Every UTF-16 unit is at most 3 UTF-8 bytes: short strings never need the byte count.
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text, 'utf8') <= maxBytes) return { text, truncated: false };
  const bytes = Buffer.from(text, 'utf8');
  let cut = maxBytes;
  // A continuation byte (10xxxxxx) at the cut means the character starting before it would be split.
  while (cut > 0 && (bytes[cut] & 0xc0) === 0x80) cut--;
  return { text: bytes.subarray(0, cut).toString('utf8') + TRUNCATION_MARKER, truncated: true };
}

/** True when the peer's text is a slash command (which A2A peers may not issue). */
export function isSlashCommand(text: string): boolean {
  return text.trimStart().startsWith('/');
}
