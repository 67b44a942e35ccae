import { cutUtf8 } from '../../../common/text/utf8';
import { MAX_MESSAGE_BYTES, TRUNCATION_MARKER } from './limits-and-messages';

/**
 * Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character, then appends the marker
 * (so the result is at most `maxBytes` + marker bytes). Text within the limit is returned unchanged.
 */
export function truncateUtf8(text: string, maxBytes = MAX_MESSAGE_BYTES): { text: string; truncated: boolean } {
  const cut = cutUtf8(text, maxBytes);
  return cut === text ? { text, truncated: false } : { text: cut + TRUNCATION_MARKER, truncated: true };
}

/** True when the peer's text is a slash command (which A2A peers may not issue). */
export function isSlashCommand(text: string): boolean {
  return text.trimStart().startsWith('/');
}
