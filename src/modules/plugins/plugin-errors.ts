import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';

const CODES: ReadonlySet<string> = new Set(Object.values(ErrorCode));

/**
 * What a plugin threw, as the gateway's `AppError` when it is one — also one made by another copy of the SDK (a
 * plugin with its own `node_modules/clawgate`), whose class is not this one: recognised by its name, code and detail.
 */
export function asAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  const e = err as { name?: unknown; code?: unknown; detail?: unknown } | null;
  if (
    e &&
    typeof e === 'object' &&
    e.name === 'AppError' &&
    typeof e.code === 'string' &&
    CODES.has(e.code) &&
    typeof e.detail === 'string'
  ) {
    return new AppError(e.code as ErrorCode, e.detail);
  }
  return undefined;
}

/** The message of what a plugin threw: an Error of any realm (not only this one's `instanceof Error`), else the value. */
export function messageOf(err: unknown): string {
  const message = (err as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(err);
}
