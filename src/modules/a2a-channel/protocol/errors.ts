import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';

/**
 * The A2A error types and their ErrorInfo `reason` (the type in UPPER_SNAKE_CASE without "Error"). The
 * specification requires an ErrorInfo among the details of every A2A-specific error, in every binding (JSON-RPC
 * `error.data`, HTTP+JSON `error.details`), so a client can tell errors apart by reason, not only by number or
 * status.
 */
const A2A_REASON_BY_CODE: Readonly<Partial<Record<ErrorCode, string>>> = Object.freeze({
  [ErrorCode.TaskNotFound]: 'TASK_NOT_FOUND',
  [ErrorCode.TaskNotCancelable]: 'TASK_NOT_CANCELABLE',
  [ErrorCode.PushNotificationNotSupported]: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
  [ErrorCode.UnsupportedOperation]: 'UNSUPPORTED_OPERATION',
  [ErrorCode.VersionNotSupported]: 'VERSION_NOT_SUPPORTED',
  [ErrorCode.ContentTypeNotSupported]: 'CONTENT_TYPE_NOT_SUPPORTED',
});

export const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';
export const A2A_ERROR_DOMAIN = 'a2a-protocol.org';
/** The domain of the gateway's own reasons (BUDGET_EXHAUSTED): they are not A2A error types. */
export const GATEWAY_ERROR_DOMAIN = 'clawgate';
/**
 * The status message metadata key of a FAILED task's ErrorInfo (docs/a2a.md#why-a-task-failed): a task that failed
 * is not an error response, so the detail rides in its status message, namespaced as extension data is.
 */
export const STATUS_ERROR_METADATA_KEY = 'clawgate/error';

/** `google.rpc.ErrorInfo` in its ProtoJSON `Any` form; metadata values are strings, as the message defines them. */
export interface ErrorInfo {
  '@type': typeof ERROR_INFO_TYPE;
  reason: string;
  domain: typeof A2A_ERROR_DOMAIN | typeof GATEWAY_ERROR_DOMAIN;
  metadata?: Record<string, string>;
}

/**
 * The ErrorInfo of a run a gateway rule refused (a budget used up): reason BUDGET_EXHAUSTED, domain `clawgate`,
 * metadata the budget and, when it resets, the seconds until then — strings, as ErrorInfo's map holds them.
 */
export function refusalErrorInfo(refusal: { reason: string; budget: string; retryAfterSeconds?: number }): ErrorInfo {
  return {
    '@type': ERROR_INFO_TYPE,
    reason: refusal.reason,
    domain: GATEWAY_ERROR_DOMAIN,
    metadata: {
      budget: refusal.budget,
      ...(refusal.retryAfterSeconds !== undefined ? { retryAfterSeconds: String(refusal.retryAfterSeconds) } : {}),
    },
  };
}

/**
 * The ErrorInfo of an A2A-specific error, undefined for any other. The string fields of the error's first item
 * (e.g. `{taskId}`: the caller's own input echoed) become its `metadata`.
 */
export function a2aErrorInfoOf(err: AppError): ErrorInfo | undefined {
  const reason = A2A_REASON_BY_CODE[err.code];
  if (reason === undefined) return undefined;
  const item = err.errors?.[0];
  const metadata = item && Object.fromEntries(Object.entries(item).filter((e): e is [string, string] => typeof e[1] === 'string'));
  return {
    '@type': ERROR_INFO_TYPE,
    reason,
    domain: A2A_ERROR_DOMAIN,
    ...(metadata && Object.keys(metadata).length ? { metadata } : {}),
  };
}

/**
 * An error as JSON-RPC carries it (`code`, `message`, `data`): the form of every A2A error in the JSON-RPC binding,
 * and the one the 0.3 translation rewrites (v03-wire.ts).
 */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** -32602 (400 in HTTP+JSON) for params a method cannot take; every reader of a request's params throws it. */
export const invalidParams = (reason: string) => new AppError(ErrorCode.InvalidParams, `Invalid params: ${reason}`);
