import type { ServerResponse } from 'node:http';
import { ErrorCode as RpcCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { HTTP_STATUS_BY_CODE } from '../../common/errors/problem-details';
import { maskSecrets } from '../../common/secrets/secret-mask';

/**
 * The MCP edge's one table (docs/architecture.md#the-error-model): each error code as the JSON-RPC error an MCP
 * client reads. The numbers are JSON-RPC's own and the MCP SDK's (`-32001` is the Streamable HTTP transport's
 * "Session not found", `-32000` its refusals at the HTTP level); the rest is `-32603`, internal, with a message
 * that says what happened.
 */
/** JSON-RPC's range for server errors; what the SDK's transport answers for its HTTP-level refusals. */
const SERVER_ERROR = -32000;
/** The Streamable HTTP transport's "Session not found" (an unknown or ended `Mcp-Session-Id`). */
export const SESSION_NOT_FOUND = -32001;

export const MCP_RPC_CODE_BY_ERROR: Readonly<Record<ErrorCode, number>> = {
  [ErrorCode.BadRequest]: RpcCode.InvalidRequest,
  [ErrorCode.InvalidParams]: RpcCode.InvalidParams,
  [ErrorCode.MethodNotFound]: RpcCode.MethodNotFound,
  [ErrorCode.NotFound]: SESSION_NOT_FOUND,
  [ErrorCode.TaskNotFound]: SESSION_NOT_FOUND,
  [ErrorCode.PayloadTooLarge]: RpcCode.InvalidRequest,
  [ErrorCode.ContentTypeNotSupported]: RpcCode.InvalidRequest,
  [ErrorCode.VersionNotSupported]: RpcCode.InvalidRequest,
  [ErrorCode.MethodNotAllowed]: SERVER_ERROR,
  [ErrorCode.Unauthenticated]: SERVER_ERROR,
  [ErrorCode.Forbidden]: SERVER_ERROR,
  [ErrorCode.RateLimited]: SERVER_ERROR,
  [ErrorCode.Unavailable]: SERVER_ERROR,
  [ErrorCode.ConfigInvalid]: RpcCode.InternalError,
  [ErrorCode.Conflict]: RpcCode.InternalError,
  [ErrorCode.PreconditionFailed]: RpcCode.InternalError,
  [ErrorCode.PreconditionRequired]: RpcCode.InternalError,
  [ErrorCode.UpstreamFailed]: RpcCode.InternalError,
  [ErrorCode.UpstreamTimeout]: SERVER_ERROR,
  [ErrorCode.Internal]: RpcCode.InternalError,
  [ErrorCode.UnsupportedOperation]: RpcCode.InvalidRequest,
  [ErrorCode.TaskNotCancelable]: RpcCode.InvalidRequest,
  [ErrorCode.PushNotificationNotSupported]: RpcCode.InvalidRequest,
};

/** A body that is not JSON: JSON-RPC's own -32700 ("Parse error"), at HTTP 400. */
export class JsonParseError extends AppError {
  constructor(detail: string) {
    super(ErrorCode.BadRequest, detail);
  }
}

/** An AppError as the JSON-RPC error of a request handler (the SDK sends it as the request's error). */
export function mcpErrorOf(err: AppError): McpError {
  return new McpError(MCP_RPC_CODE_BY_ERROR[err.code], maskSecrets(err.detail));
}

/**
 * An answer at the HTTP level, before the MCP transport has the request (disabled, key, rate, body): the status
 * the code maps to and a JSON-RPC error body with `id: null`, as the SDK's transport answers its own refusals.
 */
export function writeMcpHttpError(res: ServerResponse, err: AppError, headers: Record<string, string> = {}): void {
  const code = err instanceof JsonParseError ? RpcCode.ParseError : MCP_RPC_CODE_BY_ERROR[err.code];
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message: maskSecrets(err.detail) }, id: null });
  res.writeHead(HTTP_STATUS_BY_CODE[err.code], { ...headers, 'Content-Type': 'application/json' });
  res.end(body);
}
