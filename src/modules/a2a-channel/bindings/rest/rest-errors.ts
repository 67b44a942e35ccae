import type { AppError } from '../../../../common/errors/app-error';
import { ErrorCode } from '../../../../common/errors/error-code';
import { a2aErrorInfoOf, type ErrorInfo } from '../../protocol/errors';

/** The `google.rpc.Code` names the HTTP+JSON binding's error bodies use. */
type RpcStatusName =
  | 'INVALID_ARGUMENT'
  | 'FAILED_PRECONDITION'
  | 'UNAUTHENTICATED'
  | 'PERMISSION_DENIED'
  | 'NOT_FOUND'
  | 'ABORTED'
  | 'RESOURCE_EXHAUSTED'
  | 'UNIMPLEMENTED'
  | 'INTERNAL'
  | 'UNAVAILABLE'
  | 'DEADLINE_EXCEEDED';

/**
 * The HTTP+JSON edge's mapping of every error code: the HTTP status and the `google.rpc.Code` name of the error body.
 * The A2A errors follow the specification's table (§5.4: TaskNotFound 404; TaskNotCancelable, PushNotificationNotSupported,
 * UnsupportedOperation and VersionNotSupported 400 with the gRPC column's FAILED_PRECONDITION; ContentTypeNotSupported
 * 400 with INVALID_ARGUMENT); the others take the status the gateway's other HTTP edges give them and the code
 * google.rpc pairs with that status. It differs from HTTP_STATUS_BY_CODE only where the specification says so
 * (UnsupportedOperation is 400 here, 501 elsewhere).
 */
export const REST_STATUS_BY_CODE: Readonly<Record<ErrorCode, { http: number; status: RpcStatusName }>> = Object.freeze({
  [ErrorCode.TaskNotFound]: { http: 404, status: 'NOT_FOUND' },
  [ErrorCode.TaskNotCancelable]: { http: 400, status: 'FAILED_PRECONDITION' },
  [ErrorCode.PushNotificationNotSupported]: { http: 400, status: 'FAILED_PRECONDITION' },
  [ErrorCode.UnsupportedOperation]: { http: 400, status: 'FAILED_PRECONDITION' },
  [ErrorCode.VersionNotSupported]: { http: 400, status: 'FAILED_PRECONDITION' },
  [ErrorCode.ContentTypeNotSupported]: { http: 400, status: 'INVALID_ARGUMENT' },
  [ErrorCode.InvalidParams]: { http: 400, status: 'INVALID_ARGUMENT' },
  [ErrorCode.BadRequest]: { http: 400, status: 'INVALID_ARGUMENT' },
  [ErrorCode.ConfigInvalid]: { http: 422, status: 'INVALID_ARGUMENT' },
  [ErrorCode.Unauthenticated]: { http: 401, status: 'UNAUTHENTICATED' },
  [ErrorCode.Forbidden]: { http: 403, status: 'PERMISSION_DENIED' },
  [ErrorCode.NotFound]: { http: 404, status: 'NOT_FOUND' },
  [ErrorCode.MethodNotFound]: { http: 404, status: 'NOT_FOUND' },
  [ErrorCode.MethodNotAllowed]: { http: 405, status: 'UNIMPLEMENTED' },
  [ErrorCode.Conflict]: { http: 409, status: 'ABORTED' },
  [ErrorCode.PreconditionFailed]: { http: 412, status: 'FAILED_PRECONDITION' },
  [ErrorCode.PreconditionRequired]: { http: 428, status: 'FAILED_PRECONDITION' },
  [ErrorCode.PayloadTooLarge]: { http: 413, status: 'RESOURCE_EXHAUSTED' },
  [ErrorCode.RateLimited]: { http: 429, status: 'RESOURCE_EXHAUSTED' },
  [ErrorCode.Internal]: { http: 500, status: 'INTERNAL' },
  [ErrorCode.UpstreamFailed]: { http: 502, status: 'UNAVAILABLE' },
  [ErrorCode.Unavailable]: { http: 503, status: 'UNAVAILABLE' },
  [ErrorCode.UpstreamTimeout]: { http: 504, status: 'DEADLINE_EXCEEDED' },
});

/** The binding's error body: `google.rpc.Status` in JSON (`code` is the HTTP status), as the specification shows it. */
export interface RestErrorBody {
  error: { code: number; status: RpcStatusName; message: string; details?: ErrorInfo[] };
}

/** A domain error as the HTTP status and body of the HTTP+JSON binding; A2A-specific ones carry their ErrorInfo in `details`. */
export function restErrorOf(err: AppError): { http: number; body: RestErrorBody } {
  const { http, status } = REST_STATUS_BY_CODE[err.code];
  const info = a2aErrorInfoOf(err);
  return { http, body: { error: { code: http, status, message: err.detail, ...(info ? { details: [info] } : {}) } } };
}
