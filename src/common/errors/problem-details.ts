import type { ServerResponse } from 'node:http';
import { maskSecrets } from '../secrets/secret-mask';
import { AppError, ErrorItem } from './app-error';
import { ErrorCode } from './error-code';

/** An RFC 9457 problem details body; every HTTP error of the gateway has this shape. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  errors?: ReadonlyArray<ErrorItem>;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** The HTTP edge's mapping of every error code. */
export const HTTP_STATUS_BY_CODE: Readonly<Record<ErrorCode, number>> = Object.freeze({
  [ErrorCode.BadRequest]: 400,
  [ErrorCode.InvalidParams]: 400,
  [ErrorCode.Unauthenticated]: 401,
  [ErrorCode.Forbidden]: 403,
  [ErrorCode.NotFound]: 404,
  [ErrorCode.TaskNotFound]: 404,
  [ErrorCode.MethodNotFound]: 404,
  [ErrorCode.MethodNotAllowed]: 405,
  [ErrorCode.TaskNotCancelable]: 400,
  [ErrorCode.PushNotificationNotSupported]: 400,
  [ErrorCode.VersionNotSupported]: 400,
  [ErrorCode.ContentTypeNotSupported]: 400,
  [ErrorCode.Conflict]: 409,
  [ErrorCode.PreconditionFailed]: 412,
  [ErrorCode.PayloadTooLarge]: 413,
  [ErrorCode.ConfigInvalid]: 422,
  [ErrorCode.PreconditionRequired]: 428,
  [ErrorCode.RateLimited]: 429,
  [ErrorCode.Internal]: 500,
  [ErrorCode.UnsupportedOperation]: 501,
  [ErrorCode.UpstreamFailed]: 502,
  [ErrorCode.Unavailable]: 503,
  [ErrorCode.UpstreamTimeout]: 504,
});

/**
 * The title of a problem is the status's reason phrase (with `type: about:blank` the title must not vary
 * from one occurrence to the next); what happened in this case goes in `detail`.
 */
const TITLE_BY_STATUS: Readonly<Record<number, string>> = Object.freeze({
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
});

export function titleForStatus(status: number): string {
  return TITLE_BY_STATUS[status] ?? (status >= 500 ? 'Server Error' : 'Client Error');
}

/** A problem for a status and detail (errors raised by the HTTP layer itself: auth gates, body limits). */
export function problem(status: number, detail: string, extra: Pick<ProblemDetails, 'instance' | 'errors'> = {}): ProblemDetails {
  return {
    type: 'about:blank',
    title: titleForStatus(status),
    status,
    detail,
    ...(extra.instance !== undefined ? { instance: extra.instance } : {}),
    ...(extra.errors ? { errors: extra.errors } : {}),
  };
}

/** The problem for a domain error. */
export function problemFromAppError(err: AppError, instance?: string): ProblemDetails {
  return problem(HTTP_STATUS_BY_CODE[err.code], err.detail, { instance, errors: err.errors });
}

/** The generic 500: nothing internal (paths, stack traces, secrets) reaches the caller. */
export function internalProblem(instance?: string): ProblemDetails {
  return problem(500, 'The request could not be processed.', { instance });
}

/** The path part of a request URL, as a problem's `instance`. */
export function instanceOf(url: string | undefined): string | undefined {
  return url?.split('?')[0];
}

/**
 * The one place a problem+json response is written, for Nest handlers and for the raw handlers mounted
 * ahead of Nest alike. Headers set earlier (WWW-Authenticate, Connection) are kept. The body passes the
 * secret masker like every other response.
 */
export function writeProblem(res: ServerResponse, body: ProblemDetails): void {
  if (res.headersSent) return;
  const text = maskSecrets(JSON.stringify(body));
  res.statusCode = body.status;
  res.setHeader('Content-Type', `${PROBLEM_CONTENT_TYPE}; charset=utf-8`);
  res.setHeader('Content-Length', String(Buffer.byteLength(text, 'utf8')));
  res.end(text);
}
