import { AppError } from '../../../../common/errors/app-error';
import { ErrorCode } from '../../../../common/errors/error-code';
import { REST_STATUS_BY_CODE, restErrorOf } from './rest-errors';

describe('HTTP+JSON error mapping (the A2A REST edge)', () => {
  // The specification's table (§5.4), HTTP column, with the gRPC column's status name.
  it.each<[ErrorCode, number, string, string]>([
    [ErrorCode.TaskNotFound, 404, 'NOT_FOUND', 'TASK_NOT_FOUND'],
    [ErrorCode.TaskNotCancelable, 400, 'FAILED_PRECONDITION', 'TASK_NOT_CANCELABLE'],
    [ErrorCode.PushNotificationNotSupported, 400, 'FAILED_PRECONDITION', 'PUSH_NOTIFICATION_NOT_SUPPORTED'],
    [ErrorCode.UnsupportedOperation, 400, 'FAILED_PRECONDITION', 'UNSUPPORTED_OPERATION'],
    [ErrorCode.VersionNotSupported, 400, 'FAILED_PRECONDITION', 'VERSION_NOT_SUPPORTED'],
    [ErrorCode.ContentTypeNotSupported, 400, 'INVALID_ARGUMENT', 'CONTENT_TYPE_NOT_SUPPORTED'],
  ])('maps %s to HTTP %i (%s) with a google.rpc.ErrorInfo (reason %s) in details', (code, http, status, reason) => {
    const info = { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org' };
    expect(restErrorOf(new AppError(code, 'what happened'))).toEqual({
      http,
      body: { error: { code: http, status, message: 'what happened', details: [info] } },
    });
    expect(restErrorOf(new AppError(code, 'x', [{ taskId: 't-1', n: 2 }])).body.error.details).toEqual([
      { ...info, metadata: { taskId: 't-1' } },
    ]);
  });

  it.each<[ErrorCode, number, string]>([
    [ErrorCode.InvalidParams, 400, 'INVALID_ARGUMENT'],
    [ErrorCode.BadRequest, 400, 'INVALID_ARGUMENT'],
    [ErrorCode.Unauthenticated, 401, 'UNAUTHENTICATED'],
    [ErrorCode.NotFound, 404, 'NOT_FOUND'],
    [ErrorCode.MethodNotFound, 404, 'NOT_FOUND'],
    [ErrorCode.MethodNotAllowed, 405, 'UNIMPLEMENTED'],
    [ErrorCode.PayloadTooLarge, 413, 'RESOURCE_EXHAUSTED'],
    [ErrorCode.RateLimited, 429, 'RESOURCE_EXHAUSTED'],
    [ErrorCode.Internal, 500, 'INTERNAL'],
    [ErrorCode.Unavailable, 503, 'UNAVAILABLE'],
  ])('maps %s to HTTP %i (%s) without details', (code, http, status) => {
    expect(restErrorOf(new AppError(code, 'what happened'))).toEqual({
      http,
      body: { error: { code: http, status, message: 'what happened' } },
    });
  });

  it('covers every code of the enum', () => {
    expect(Object.keys(REST_STATUS_BY_CODE).sort()).toEqual(Object.values(ErrorCode).sort());
  });
});
