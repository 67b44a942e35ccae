import { ErrorCode } from './error-code';

/** One itemized problem (a config issue, a field error) carried next to the detail. */
export type ErrorItem = Readonly<Record<string, unknown>>;

/**
 * The one error type domain code throws. It says what went wrong (a code and a detail that never contains
 * a secret) and nothing about how an edge reports it: see problem-details.ts (HTTP), the A2A channel's
 * JSON-RPC mapping and the runtime's tool-result mapping.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    /** What happened in this case, for the caller. */
    readonly detail: string,
    /** Itemized problems (config issues, field errors). */
    readonly errors?: ReadonlyArray<ErrorItem>,
  ) {
    super(detail);
    this.name = 'AppError';
  }
}

export const notFound = (detail: string) => new AppError(ErrorCode.NotFound, detail);
export const badRequest = (detail: string, errors?: ReadonlyArray<ErrorItem>) => new AppError(ErrorCode.BadRequest, detail, errors);
export const conflict = (detail: string, errors?: ReadonlyArray<ErrorItem>) => new AppError(ErrorCode.Conflict, detail, errors);
