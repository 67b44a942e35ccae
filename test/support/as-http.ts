import { AppError } from '../../src/common/errors/app-error';
import { problemFromAppError } from '../../src/common/errors/problem-details';

/**
 * The promise, with a rejected AppError replaced by the problem the HTTP edge answers for it — so a unit
 * test can state the status a caller of the admin API would see.
 */
export function asHttp<T>(promise: Promise<T>): Promise<T> {
  return promise.catch((err: unknown) => {
    throw err instanceof AppError ? problemFromAppError(err) : err;
  });
}
