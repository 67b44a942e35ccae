import { MAX_MESSAGE_BYTES, TRUNCATION_MARKER } from './limits-and-messages';

/**
 * Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character, then appends the marker
 * (so the result is at most `maxBytes` + marker bytes). Text within the limit is returned unchanged.
 */
export function truncateUtf8(text: string, maxBytes = MAX_MESSAGE_BYTES): { text: string; truncated: boolean } {
  const cut = cutUtf8(text, maxBytes);
  return cut === text ? { text, truncated: false } : { text: cut + TRUNCATION_MARKER, truncated: true };
}

/** The longest start of `text` of at most `maxBytes` UTF-8 bytes that ends on a character boundary. */
export function cutUtf8(text: string, maxBytes: number): string {
  // Every UTF-16 unit is at most 3 UTF-8 bytes: short strings never need the byte count.
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  const bytes = Buffer.from(text, 'utf8');
  let cut = maxBytes;
  // A continuation byte (10xxxxxx) at the cut means the character starting before it would be split.
  while (cut > 0 && (bytes[cut] & 0xc0) === 0x80) cut--;
  return bytes.subarray(0, cut).toString('utf8');
}

/** True when the peer's text is a slash command (which A2A peers may not issue). */
export function isSlashCommand(text: string): boolean {
  return text.trimStart().startsWith('/');
}
