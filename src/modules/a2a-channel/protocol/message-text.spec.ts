import { MAX_MESSAGE_BYTES, TRUNCATION_MARKER } from './limits-and-messages';
import { isSlashCommand, truncateUtf8 } from './message-text';

describe('truncateUtf8', () => {
  it('leaves text within the limit untouched', () => {
    const text = 'é'.repeat(MAX_MESSAGE_BYTES / 2);
    expect(truncateUtf8(text)).toEqual({ text, truncated: false });
  });

  it.each([
    ['2-byte', 'é'],
    ['3-byte', '€'],
    ['4-byte', '𝄞'],
  ])('cuts %s characters on a boundary and appends the marker', (_what, char) => {
    // One ASCII byte first, so the limit falls inside a multi-byte character.
    const text = 'x' + char.repeat(70 * 1024);
    const { text: out, truncated } = truncateUtf8(text);
    expect(truncated).toBe(true);
    expect(out.endsWith(TRUNCATION_MARKER)).toBe(true);
    const body = out.slice(0, -TRUNCATION_MARKER.length);
    expect(body).not.toContain('\uFFFD');
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    // Nothing that fitted was dropped: one more character would cross the limit.
    expect(Buffer.byteLength(body + char)).toBeGreaterThan(MAX_MESSAGE_BYTES);
    expect(text.startsWith(body)).toBe(true);
  });

  it('cuts ASCII at exactly the limit', () => {
    const { text } = truncateUtf8('a'.repeat(MAX_MESSAGE_BYTES + 1));
    expect(text).toBe('a'.repeat(MAX_MESSAGE_BYTES) + '\n[message truncated at 65536 bytes]');
  });
});

describe('isSlashCommand', () => {
  it('is true for text starting with / after trimming, false for commands elsewhere', () => {
    expect(isSlashCommand('/reset')).toBe(true);
    expect(isSlashCommand('  \n/model gpt')).toBe(true);
    expect(isSlashCommand('please run /reset')).toBe(false);
    expect(isSlashCommand('a/b')).toBe(false);
  });
});
