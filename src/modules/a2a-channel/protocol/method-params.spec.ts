import { AppError } from '../../../common/errors/app-error';
import { jsonRpcErrorOf } from '../bindings/json-rpc/json-rpc';
import { parseGetTaskParams, parseSendMessageParams } from './method-params';

const message = (extra: Record<string, unknown> = {}) => ({
  message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }], ...extra },
});

/** The default file policy (`channels.a2a.files`). */
const FILES = { maxBytes: 1024 * 1024, mediaTypes: ['text/*', 'application/json'] };
const parse = (params: unknown) => parseSendMessageParams(params, FILES);

function failure(fn: () => unknown): { code: number; message: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return { code: jsonRpcErrorOf(e).code, message: jsonRpcErrorOf(e).message };
    throw e;
  }
  throw new Error('expected an AppError');
}

describe('parseSendMessageParams', () => {
  it('accepts a minimal 1.0 message and defaults to blocking without a context', () => {
    expect(parse(message())).toEqual({
      messageId: 'm1',
      contextId: undefined,
      text: 'hi',
      truncated: false,
      files: [],
      returnImmediately: false,
    });
  });

  it('reads configuration.historyLength (a non-negative integer) and the taskId of an answer', () => {
    expect(parse({ ...message(), configuration: { historyLength: 2 } })).toMatchObject({ historyLength: 2 });
    expect(parse({ ...message(), configuration: { historyLength: null } })).not.toHaveProperty('historyLength');
    for (const bad of [-1, 0.5, 'all']) {
      expect(failure(() => parse({ ...message(), configuration: { historyLength: bad } }))).toMatchObject({
        code: -32602,
        message: expect.stringContaining('configuration.historyLength must be a non-negative integer'),
      });
    }
  });

  it('accepts every documented role spelling, and requires one', () => {
    for (const role of ['ROLE_USER', 'ROLE_AGENT', 'user', 'agent']) {
      expect(parse(message({ role })).text).toBe('hi');
    }
    expect(failure(() => parse(message({ role: undefined })))).toMatchObject({
      code: -32602,
      message: expect.stringContaining('role is required'),
    });
  });

  it('reads returnImmediately, and the 0.3 blocking:false as the same thing', () => {
    expect(parse({ ...message(), configuration: { returnImmediately: true } }).returnImmediately).toBe(true);
    expect(parse({ ...message(), configuration: { blocking: false } }).returnImmediately).toBe(true);
    expect(parse({ ...message(), configuration: { blocking: true } }).returnImmediately).toBe(false);
  });

  it('keeps a valid contextId and treats an empty one as absent', () => {
    expect(parse(message({ contextId: 'ctx.A_b:9-z' })).contextId).toBe('ctx.A_b:9-z');
    expect(parse(message({ contextId: '' })).contextId).toBeUndefined();
  });

  it.each([
    ['params not an object', [1], -32602, 'params must be an object'],
    ['no message', {}, -32602, 'params.message must be an object'],
    ['no messageId', { message: { parts: [{ text: 'x' }] } }, -32602, 'message.messageId is required'],
    ['a bad role', message({ role: 'ROLE_ADMIN' }), -32602, 'message.role'],
    ['empty parts', message({ parts: [] }), -32602, 'message.parts must be a non-empty array'],
    ['a contextId with a space', message({ contextId: 'ctx 1' }), -32602, 'message.contextId must match'],
    ['a 129-char contextId', message({ contextId: 'c'.repeat(129) }), -32602, 'message.contextId must match'],
    ['a taskId that is not a string', message({ taskId: 7 }), -32602, 'message.taskId must be a string'],
    ['a non-boolean returnImmediately', { ...message(), configuration: { returnImmediately: 'yes' } }, -32602, 'returnImmediately'],
  ])('refuses %s', (_what, params, code, text) => {
    const error = failure(() => parse(params));
    expect(error.code).toBe(code);
    expect(error.message).toContain(text);
  });

  it('hands file parts on with the text, and applies the file policy it is given', () => {
    const parts = [{ text: 'see attached' }, { raw: Buffer.from('a,b\n').toString('base64'), filename: 'x.csv', mediaType: 'text/csv' }];
    const input = parse(message({ parts }));
    expect(input.text).toBe('see attached');
    expect(input.files).toEqual([{ kind: 'raw', part: 1, filename: 'x.csv', mediaType: 'text/csv', bytes: Buffer.from('a,b\n') }]);
    expect(failure(() => parseSendMessageParams(message({ parts }), { maxBytes: 1, mediaTypes: ['*/*'] })).code).toBe(-32602);
    expect(failure(() => parseSendMessageParams(message({ parts }), { maxBytes: 100, mediaTypes: ['image/*'] })).code).toBe(-32005);
  });

  it("passes a taskId on (whether the task exists and may continue is the task service's question)", () => {
    expect(parse(message({ taskId: 't' })).taskId).toBe('t');
    expect(parse(message({ taskId: '' }))).not.toHaveProperty('taskId');
  });
});

describe('parseGetTaskParams', () => {
  it('reads the id, checks historyLength and ignores tenant', () => {
    expect(parseGetTaskParams({ id: 't1', historyLength: 3, tenant: '' })).toEqual({ id: 't1', historyLength: 3 });
    expect(parseGetTaskParams({ id: 't1', historyLength: 0 })).toEqual({ id: 't1', historyLength: 0 });
    expect(parseGetTaskParams({ id: 't1', historyLength: null })).toEqual({ id: 't1' });
    for (const bad of [-1, 1.5, '3']) {
      expect(failure(() => parseGetTaskParams({ id: 't1', historyLength: bad }))).toMatchObject({
        code: -32602,
        message: expect.stringContaining('historyLength'),
      });
    }
  });

  it('refuses a missing or non-string id with -32602', () => {
    expect(failure(() => parseGetTaskParams({})).code).toBe(-32602);
    expect(failure(() => parseGetTaskParams({ id: 7 })).code).toBe(-32602);
    expect(failure(() => parseGetTaskParams(undefined)).code).toBe(-32602);
  });
});
