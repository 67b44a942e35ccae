import type { AppError } from '../../../common/errors/app-error';
import { jsonRpcErrorOf } from '../bindings/json-rpc/json-rpc';
import { parseGetTaskParams, parseListTasksParams, parseSendMessageParams } from './method-params';
import { PROTO_NAMED_FIELDS, protoNameOf, withJsonFieldNames } from './proto-field-names';

const FILES = { maxBytes: 1024, mediaTypes: ['text/*'] };

function rpcError(fn: () => unknown): { code: number; message: string } {
  try {
    fn();
  } catch (e) {
    const { code, message } = jsonRpcErrorOf(e as AppError);
    return { code, message };
  }
  throw new Error('expected an error');
}

describe('proto field names', () => {
  it('derives the proto name of a JSON name', () => {
    expect(protoNameOf('historyLength')).toBe('history_length');
    expect(protoNameOf('statusTimestampAfter')).toBe('status_timestamp_after');
    expect(protoNameOf('id')).toBe('id');
  });

  it('moves proto-named fields to their JSON names, without touching the caller object or other fields', () => {
    const sent = { history_length: 2, id: 't', metadata: { some_key: 1 } };
    expect(withJsonFieldNames(sent, PROTO_NAMED_FIELDS.getTask)).toEqual({ historyLength: 2, id: 't', metadata: { some_key: 1 } });
    expect(sent).toEqual({ history_length: 2, id: 't', metadata: { some_key: 1 } });
    const camel = { historyLength: 2 };
    expect(withJsonFieldNames(camel, PROTO_NAMED_FIELDS.getTask)).toBe(camel);
  });

  it('refuses one field under both names with -32602 naming both', () => {
    expect(rpcError(() => withJsonFieldNames({ pageSize: 1, page_size: 2 }, PROTO_NAMED_FIELDS.listTasks))).toEqual({
      code: -32602,
      message: 'Invalid params: pageSize and page_size are the same field: send it once',
    });
    const both = { message: { messageId: 'm', message_id: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] } };
    expect(rpcError(() => parseSendMessageParams(both, FILES)).message).toBe(
      'Invalid params: message.messageId and message.message_id are the same field: send it once',
    );
  });

  it('is applied by every params reader: send, its configuration and parts, get and list', () => {
    const sent = parseSendMessageParams(
      {
        message: { message_id: 'm', context_id: 'c-1', task_id: 't-1', role: 'ROLE_USER', parts: [{ text: 'x' }] },
        configuration: { return_immediately: true, history_length: 0 },
      },
      FILES,
    );
    expect(sent).toMatchObject({ messageId: 'm', contextId: 'c-1', taskId: 't-1', returnImmediately: true, historyLength: 0 });
    const part = { raw: 'aGk=', media_type: 'image/png' };
    // The declared media type is read (else the part would be application/octet-stream).
    expect(rpcError(() => parseSendMessageParams({ message: { messageId: 'm', role: 'ROLE_USER', parts: [part] } }, FILES))).toEqual({
      code: -32005,
      message: 'Content type not supported: message.parts[0] is image/png',
    });
    expect(parseGetTaskParams({ id: 't', history_length: 1 })).toEqual({ id: 't', historyLength: 1 });
    expect(
      parseListTasksParams({
        context_id: 'c',
        page_size: 3,
        page_token: 'tok',
        history_length: 1,
        status_timestamp_after: '2026-01-01T00:00:00Z',
        include_artifacts: true,
      }),
    ).toEqual({
      contextId: 'c',
      pageSize: 3,
      pageToken: 'tok',
      historyLength: 1,
      updatedSince: Date.parse('2026-01-01T00:00:00Z'),
      includeArtifacts: true,
    });
    // Validation is the JSON name's, under whichever name was sent.
    expect(rpcError(() => parseListTasksParams({ page_size: 0 })).message).toBe('Invalid params: pageSize must be an integer 1..100');
  });
});
