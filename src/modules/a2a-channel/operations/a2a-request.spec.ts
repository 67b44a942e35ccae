import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { readA2aRequest, type A2aRequestSource } from './a2a-request';
import { readRequestVersion } from '../protocol/versions';

const FILES = { maxBytes: 1024, mediaTypes: ['text/*'] };
const MESSAGE = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] };

function read(method: string, params: unknown, more: Partial<A2aRequestSource> = {}) {
  return readA2aRequest({ method, version: {}, params: () => params, canStream: true, files: FILES, ...more });
}

const codeOf = (request: ReturnType<typeof read>) => (request.ok ? 'OK' : (request.error as AppError).code);

describe('readA2aRequest (the typed seam both bindings read a call through)', () => {
  it('reads a SendMessage into its operation, version, codec and the message as the domain reads it', () => {
    const request = read('SendMessage', { message: MESSAGE, configuration: { historyLength: 2 } });
    expect(request).toMatchObject({ ok: true, called: 'SendMessage', operation: 'sendMessage', version: '1.0' });
    expect(request.codec.version).toBe('1.0');
    expect(request.ok && request.call).toEqual({
      operation: 'sendMessage',
      params: { messageId: 'm-1', text: 'hi', truncated: false, files: [], returnImmediately: false, historyLength: 2 },
    });
  });

  it('reads a 0.3 call through the 0.3 codec, and a declared version over the method name', () => {
    const v03 = read('message/send', {
      message: { ...MESSAGE, role: 'user', parts: [{ kind: 'text', text: 'hi' }] },
      configuration: { blocking: false },
    });
    expect(v03).toMatchObject({
      ok: true,
      version: '0.3',
      call: { operation: 'sendMessage', params: { text: 'hi', returnImmediately: true } },
    });
    expect(read('tasks/get', { id: 't' }, { version: { declared: '1.0' } })).toMatchObject({
      version: '1.0',
      call: { params: { id: 't' } },
    });
  });

  it('refuses in the order a caller is answered: version, method, depth, streaming, params', () => {
    const versionError = readRequestVersion('9.9').problem;
    let asked = 0;
    const counted = () => (asked++, {});
    // A version this endpoint does not speak wins over everything, and the params are never read.
    expect(
      codeOf(readA2aRequest({ method: 'Nope', version: { problem: versionError }, params: counted, canStream: true, files: FILES })),
    ).toBe(ErrorCode.VersionNotSupported);
    expect(codeOf(readA2aRequest({ method: 'Nope', version: {}, params: counted, canStream: true, files: FILES }))).toBe(
      ErrorCode.MethodNotFound,
    );
    expect(asked).toBe(0);
    let deep: unknown = { id: 't' };
    for (let i = 0; i < 70; i++) deep = { deep };
    expect(codeOf(read('GetTask', deep))).toBe(ErrorCode.InvalidParams);
    expect(codeOf(read('SendStreamingMessage', { message: MESSAGE }, { canStream: false }))).toBe(ErrorCode.UnsupportedOperation);
    expect(codeOf(read('GetTask', {}))).toBe(ErrorCode.InvalidParams);
  });

  it('keeps the operation of a refused call for its log line, and a binding error thrown while reading params', () => {
    const refused = read('GetTask', undefined, {
      params: () => {
        throw new AppError(ErrorCode.InvalidParams, 'bad query');
      },
    });
    expect(refused).toMatchObject({ ok: false, operation: 'getTask', called: 'GetTask' });
    expect((refused as { error: AppError }).error.detail).toBe('bad query');
  });
});
