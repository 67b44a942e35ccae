import { AppError } from '../../../common/errors/app-error';
import { jsonRpcErrorOf } from '../bindings/json-rpc/json-rpc';
import type { JsonRpcErrorObject } from './errors';
import { readMessageParts } from './message-parts';

const POLICY = { maxBytes: 64, mediaTypes: ['text/*', 'application/json', 'image/png'] };
const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

function refusal(parts: unknown[], policy = POLICY): JsonRpcErrorObject {
  try {
    readMessageParts(parts, policy);
  } catch (e) {
    if (e instanceof AppError) return jsonRpcErrorOf(e);
    throw e;
  }
  throw new Error('expected the parts to be refused');
}

describe('readMessageParts', () => {
  it('joins text parts with \\n and appends data parts as compact JSON, in part order', () => {
    const { text, files } = readMessageParts(
      [{ text: 'first' }, { data: { a: 1, b: [true, null] } }, { kind: 'text', text: 'last' }],
      POLICY,
    );
    expect(text).toBe('first\n{"a":1,"b":[true,null]}\nlast');
    expect(files).toEqual([]);
  });

  it('reads 1.0 raw and url parts, with their filename and media type (parameters dropped, lowercased)', () => {
    const { text, files } = readMessageParts(
      [
        { text: 'look' },
        { raw: b64('hello'), filename: 'hi.txt', mediaType: 'Text/Plain; charset=utf-8' },
        { url: 'https://files.example/r.png', mediaType: 'image/png' },
        { url: 'http://files.example/any' },
      ],
      POLICY,
    );
    expect(text).toBe('look');
    expect(files).toEqual([
      { kind: 'raw', part: 1, filename: 'hi.txt', mediaType: 'text/plain', bytes: Buffer.from('hello') },
      { kind: 'url', part: 2, mediaType: 'image/png', url: 'https://files.example/r.png', filename: undefined },
      { kind: 'url', part: 3, url: 'http://files.example/any', filename: undefined, mediaType: undefined },
    ]);
  });

  it('reads the 0.3 file part shapes (bytes and uri, name, mimeType)', () => {
    const { files } = readMessageParts(
      [
        { kind: 'file', file: { bytes: b64('{"a":1}'), name: 'a.json', mimeType: 'application/json' } },
        { kind: 'file', file: { uri: 'https://files.example/b.txt', name: 'b.txt', mimeType: 'text/plain' } },
      ],
      POLICY,
    );
    expect(files).toEqual([
      { kind: 'raw', part: 0, filename: 'a.json', mediaType: 'application/json', bytes: Buffer.from('{"a":1}') },
      { kind: 'url', part: 1, filename: 'b.txt', mediaType: 'text/plain', url: 'https://files.example/b.txt' },
    ]);
  });

  it('accepts a message of files only, and URL-safe or unpadded base64', () => {
    const bytes = Buffer.from([0xfb, 0xff, 0xfe, 0x01]);
    const urlSafe = bytes.toString('base64url');
    expect(urlSafe).not.toContain('=');
    const { text, files } = readMessageParts([{ raw: urlSafe, mediaType: 'image/png' }], POLICY);
    expect(text).toBe('');
    expect(files[0]).toMatchObject({ kind: 'raw', bytes });
  });

  it('answers a media type the policy does not accept with -32005 and an ErrorInfo naming the part', () => {
    expect(refusal([{ text: 'x' }, { raw: b64('GIF89a'), filename: 'a.gif', mediaType: 'image/gif' }])).toEqual({
      code: -32005,
      message: 'Content type not supported: message.parts[1] is image/gif',
      data: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'CONTENT_TYPE_NOT_SUPPORTED',
          domain: 'a2a-protocol.org',
          metadata: { mediaType: 'image/gif', part: 'message.parts[1]', acceptedMediaTypes: 'text/*,application/json,image/png' },
        },
      ],
    });
    // A raw part without a media type is arbitrary bytes; a url part declaring one is checked too.
    expect(refusal([{ raw: b64('x') }]).message).toContain('application/octet-stream');
    expect(refusal([{ url: 'https://x.example/v.mp4', mediaType: 'video/mp4' }]).code).toBe(-32005);
    expect(readMessageParts([{ raw: b64('x') }], { maxBytes: 10, mediaTypes: ['*/*'] }).files).toHaveLength(1);
  });

  it('refuses raw files over maxBytes in total with -32602 naming the part and the limit', () => {
    const error = refusal([
      { raw: b64('a'.repeat(40)), mediaType: 'text/plain' },
      { raw: b64('b'.repeat(40)), mediaType: 'text/plain' },
    ]);
    expect(error).toEqual({
      code: -32602,
      message:
        'Invalid params: message.parts[1]: the files of one message may total at most 64 bytes (channels.a2a.files.maxBytes); with this part they are 80',
    });
    expect(refusal([{ raw: b64('a'), mediaType: 'text/plain' }], { ...POLICY, maxBytes: 0 }).message).toContain('at most 0 bytes');
  });

  it.each([
    ['characters outside base64', [{ raw: 'not base64!', mediaType: 'text/plain' }], 'message.parts[0].raw is not valid base64'],
    [
      'a lone trailing character',
      [
        { raw: 'aGVsbG8', mediaType: 'text/plain' },
        { raw: 'aGVsb', mediaType: 'text/plain' },
      ],
      'parts[1].raw',
    ],
    ['padding that does not complete a group', [{ raw: 'aGk==', mediaType: 'text/plain' }], 'parts[0].raw is not valid base64'],
    ['raw that is not a string', [{ raw: 42, mediaType: 'text/plain' }], 'parts[0].raw is not valid base64'],
    ['a part with no content', [{ metadata: {} }], 'message.parts[0] has no text, data, raw or url content'],
    ['a 0.3 file with neither bytes nor uri', [{ kind: 'file', file: { name: 'x' } }], 'parts[0].file has neither bytes nor uri'],
    ['a media type that is not one', [{ raw: 'aGk=', mediaType: 'plain' }], 'parts[0].mediaType must be a media type'],
    ['a wildcard media type on a part', [{ raw: 'aGk=', mediaType: 'text/*' }], 'parts[0].mediaType must be a media type'],
    ['a filename over 255 characters', [{ raw: 'aGk=', mediaType: 'text/plain', filename: 'f'.repeat(256) }], 'filename must be a string'],
    ['a url that is not http(s)', [{ url: 'file:///etc/passwd' }], 'parts[0].url must be an absolute http(s) URL'],
    ['a relative url', [{ url: '/x' }], 'parts[0].url must be an absolute http(s) URL'],
    [
      'more than 20 file parts',
      Array.from({ length: 21 }, () => ({ url: 'https://x.example/' })),
      'parts[20]: a message may carry at most 20',
    ],
    ['whitespace only', [{ text: '  \n ' }], 'message has no text'],
    ['a non-string text', [{ text: 42 }], 'message.parts[0].text must be a string'],
    ['a part that is not an object', ['hello'], 'message.parts[0] must be an object'],
  ])('refuses %s with -32602', (_what, parts, reason) => {
    const error = refusal(parts);
    expect(error.code).toBe(-32602);
    expect(error.message).toContain(reason);
  });
});
