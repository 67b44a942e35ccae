import { MAX_MESSAGE_BYTES, TRUNCATION_MARKER } from './a2a-limits';
import { AppError } from '../../common/errors/app-error';
import { jsonRpcErrorOf } from './json-rpc';
import { extractMessageText, isSlashCommand, truncateUtf8 } from './message-text';

describe('extractMessageText', () => {
  it('joins text parts with \\n and appends data parts as compact JSON, in part order', () => {
    const text = extractMessageText([{ text: 'first' }, { data: { a: 1, b: [true, null] } }, { kind: 'text', text: 'last' }]);
    expect(text).toBe('first\n{"a":1,"b":[true,null]}\nlast');
  });

  it('ignores url, raw and 0.3 file parts', () => {
    expect(
      extractMessageText([{ url: 'https://evil.example/x' }, { raw: 'aGk=' }, { kind: 'file', file: { uri: 'x' } }, { text: 'hi' }]),
    ).toBe('hi');
  });

  it.each([
    ['only url/raw parts', [{ url: 'https://x' }, { raw: 'aGk=' }], 'no text or data part'],
    ['whitespace only', [{ text: '  \n ' }], 'message has no text'],
    ['a non-string text', [{ text: 42 }], 'message.parts[0].text must be a string'],
    ['a part that is not an object', ['hello'], 'message.parts[0] must be an object'],
  ])('refuses %s with -32602', (_what, parts, reason) => {
    let error: unknown;
    try {
      extractMessageText(parts);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(jsonRpcErrorOf(error as AppError).code).toBe(-32602);
    expect(jsonRpcErrorOf(error as AppError).message).toContain(reason);
  });
});

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
