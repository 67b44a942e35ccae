import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';

export type ToolStatus = 'ok' | 'accepted' | 'forbidden' | 'not_found' | 'timeout' | 'error';

/**
 * What a tool hands back to the model: a JSON object with a status (docs/runtime.md#tools). Tools never
 * throw at the model; failures are results it can read and act on.
 */
export type ToolResult = { status: ToolStatus } & Record<string, unknown>;

/** The tool edge's mapping of error codes; every code not listed is a plain `error`. */
export const TOOL_STATUS_BY_CODE: Readonly<Partial<Record<ErrorCode, ToolStatus>>> = Object.freeze({
  [ErrorCode.Unauthenticated]: 'forbidden',
  [ErrorCode.Forbidden]: 'forbidden',
  [ErrorCode.NotFound]: 'not_found',
  [ErrorCode.TaskNotFound]: 'not_found',
  [ErrorCode.UpstreamTimeout]: 'timeout',
});

export function toolStatusOf(code: ErrorCode): ToolStatus {
  return TOOL_STATUS_BY_CODE[code] ?? 'error';
}

/** A domain error as a tool result; `fields` are added (e.g. the peer a send was for). */
export function toolResultFromError(err: AppError, fields: Record<string, unknown> = {}, prefix = ''): ToolResult {
  return { status: toolStatusOf(err.code), ...fields, error: `${prefix}${err.detail}` };
}
