import { AppError } from '../../../../common/errors/app-error';
import { ErrorCode } from '../../../../common/errors/error-code';
import { a2aErrorInfoOf, type JsonRpcErrorObject } from '../../protocol/errors';

/**
 * JSON-RPC 2.0 framing for the A2A endpoint: envelope types, the error codes of JSON-RPC and A2A 1.0, and
 * the JSON-RPC edge's mapping of the gateway's error codes. Error objects carry only `code`, `message` and
 * `data`.
 */

export type JsonRpcId = string | number | null;

export type JsonRpcResponse =
  { jsonrpc: '2.0'; id: JsonRpcId; result: unknown } | { jsonrpc: '2.0'; id: JsonRpcId; error: JsonRpcErrorObject };

export const RPC_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  /** Server error range; A2A uses it for everything not covered by a specific code. */
  serverError: -32000,
  taskNotFound: -32001,
  taskNotCancelable: -32002,
  pushNotificationNotSupported: -32003,
  unsupportedOperation: -32004,
  contentTypeNotSupported: -32005,
  versionNotSupported: -32009,
} as const;

/**
 * The JSON-RPC edge's mapping of every error code. Codes without an A2A or JSON-RPC counterpart are the
 * generic server error; the message is the error's detail, which is written for the caller.
 */
export const JSON_RPC_CODE_BY_ERROR: Readonly<Record<ErrorCode, number>> = Object.freeze({
  [ErrorCode.InvalidParams]: RPC_CODES.invalidParams,
  [ErrorCode.BadRequest]: RPC_CODES.invalidParams,
  [ErrorCode.MethodNotFound]: RPC_CODES.methodNotFound,
  // Only the HTTP+JSON binding routes by HTTP method; a JSON-RPC caller would simply have named no method.
  [ErrorCode.MethodNotAllowed]: RPC_CODES.methodNotFound,
  [ErrorCode.TaskNotFound]: RPC_CODES.taskNotFound,
  [ErrorCode.UnsupportedOperation]: RPC_CODES.unsupportedOperation,
  [ErrorCode.TaskNotCancelable]: RPC_CODES.taskNotCancelable,
  [ErrorCode.PushNotificationNotSupported]: RPC_CODES.pushNotificationNotSupported,
  [ErrorCode.VersionNotSupported]: RPC_CODES.versionNotSupported,
  [ErrorCode.ContentTypeNotSupported]: RPC_CODES.contentTypeNotSupported,
  [ErrorCode.ConfigInvalid]: RPC_CODES.serverError,
  [ErrorCode.Unauthenticated]: RPC_CODES.serverError,
  [ErrorCode.Forbidden]: RPC_CODES.serverError,
  [ErrorCode.NotFound]: RPC_CODES.serverError,
  [ErrorCode.Conflict]: RPC_CODES.serverError,
  [ErrorCode.PreconditionFailed]: RPC_CODES.serverError,
  [ErrorCode.PreconditionRequired]: RPC_CODES.serverError,
  [ErrorCode.PayloadTooLarge]: RPC_CODES.serverError,
  [ErrorCode.RateLimited]: RPC_CODES.serverError,
  [ErrorCode.Unavailable]: RPC_CODES.serverError,
  [ErrorCode.UpstreamFailed]: RPC_CODES.serverError,
  [ErrorCode.UpstreamTimeout]: RPC_CODES.serverError,
  [ErrorCode.Internal]: RPC_CODES.serverError,
});

/**
 * A domain error as a JSON-RPC error object. A2A-specific ones carry their ErrorInfo (with the error's first item as
 * its metadata) as the one entry of `data`.
 */
export function jsonRpcErrorOf(err: AppError): JsonRpcErrorObject {
  const error: JsonRpcErrorObject = { code: JSON_RPC_CODE_BY_ERROR[err.code], message: err.detail };
  const info = a2aErrorInfoOf(err);
  if (info) error.data = [info];
  return error;
}

export function errorResponse(id: JsonRpcId, error: JsonRpcErrorObject): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error };
}

export function resultResponse(id: JsonRpcId, result: unknown): JsonRpcResponse {
  return { jsonrpc: '2.0', id, result };
}

/** One entry of a request body, classified. */
export type ParsedEntry =
  | { kind: 'call'; id: JsonRpcId; method: string; params: unknown }
  | { kind: 'notification'; method: string; params: unknown }
  /** Not a Request object; answered with -32600 and the id when one could be read. */
  | { kind: 'invalid'; id: JsonRpcId };

function isValidId(value: unknown): value is JsonRpcId {
  return value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * Classifies one entry. A Request has `jsonrpc: "2.0"`, a string `method`, optional structured `params`
 * and, unless it is a notification, an `id` that is a string, number or null.
 */
export function parseEntry(entry: unknown): ParsedEntry {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return { kind: 'invalid', id: null };
  const e = entry as Record<string, unknown>;
  const hasId = Object.prototype.hasOwnProperty.call(e, 'id');
  const id = hasId && isValidId(e.id) ? e.id : null;
  if (hasId && !isValidId(e.id)) return { kind: 'invalid', id: null };
  if (e.jsonrpc !== '2.0' || typeof e.method !== 'string') return { kind: 'invalid', id };
  const params = e.params;
  if (params !== undefined && (typeof params !== 'object' || params === null)) return { kind: 'invalid', id };
  return hasId ? { kind: 'call', id, method: e.method, params } : { kind: 'notification', method: e.method, params };
}
