import { AppError } from '../../../../common/errors/app-error';
import { ErrorCode } from '../../../../common/errors/error-code';
import { JSON_RPC_CODE_BY_ERROR, jsonRpcErrorOf } from './json-rpc';

describe('JSON-RPC error mapping (the A2A edge)', () => {
  it.each<[ErrorCode, number, string]>([
    [ErrorCode.TaskNotFound, -32001, 'TASK_NOT_FOUND'],
    [ErrorCode.TaskNotCancelable, -32002, 'TASK_NOT_CANCELABLE'],
    [ErrorCode.PushNotificationNotSupported, -32003, 'PUSH_NOTIFICATION_NOT_SUPPORTED'],
    [ErrorCode.UnsupportedOperation, -32004, 'UNSUPPORTED_OPERATION'],
    [ErrorCode.VersionNotSupported, -32009, 'VERSION_NOT_SUPPORTED'],
    [ErrorCode.ContentTypeNotSupported, -32005, 'CONTENT_TYPE_NOT_SUPPORTED'],
  ])('maps %s to %i with a google.rpc.ErrorInfo (reason %s) in data', (code, rpcCode, reason) => {
    const info = { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org' };
    expect(jsonRpcErrorOf(new AppError(code, 'what happened'))).toEqual({ code: rpcCode, message: 'what happened', data: [info] });
    // String fields of the first item become the ErrorInfo's metadata; others are left out.
    expect(jsonRpcErrorOf(new AppError(code, 'x', [{ taskId: 't-1', count: 3 }])).data).toEqual([{ ...info, metadata: { taskId: 't-1' } }]);
  });

  it.each<[ErrorCode, number]>([
    [ErrorCode.InvalidParams, -32602],
    [ErrorCode.BadRequest, -32602],
    [ErrorCode.MethodNotFound, -32601],
    [ErrorCode.MethodNotAllowed, -32601],
    [ErrorCode.Unavailable, -32000],
    [ErrorCode.RateLimited, -32000],
    [ErrorCode.Internal, -32000],
    [ErrorCode.NotFound, -32000],
    [ErrorCode.UpstreamFailed, -32000],
  ])('maps %s to %i with the detail as message', (code, rpcCode) => {
    expect(jsonRpcErrorOf(new AppError(code, 'what happened'))).toEqual({ code: rpcCode, message: 'what happened' });
  });

  it('covers every code of the enum', () => {
    expect(Object.keys(JSON_RPC_CODE_BY_ERROR).sort()).toEqual(Object.values(ErrorCode).sort());
  });
});
