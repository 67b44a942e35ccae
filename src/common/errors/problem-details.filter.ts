import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError } from './domain-error';

/** RFC 9457 body. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  errors?: ReadonlyArray<Record<string, unknown>>;
}

/**
 * Every HTTP error leaves as `application/problem+json`. Unexpected exceptions are logged with their stack
 * and answered with a generic 500 so nothing internal (paths, secrets, stack traces) reaches the caller.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request>();
    const problem = this.toProblem(exception);
    problem.instance = req.originalUrl?.split('?')[0];
    if (res.headersSent) return;
    res.status(problem.status).type('application/problem+json').send(JSON.stringify(problem));
  }

  private toProblem(exception: unknown): ProblemDetails {
    if (exception instanceof DomainError) {
      return {
        type: 'about:blank',
        title: exception.title,
        status: exception.status,
        detail: exception.detail,
        ...(exception.errors ? { errors: exception.errors } : {}),
      };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const body = exception.getResponse();
      const messages = typeof body === 'object' && body && 'message' in body ? (body as { message: unknown }).message : undefined;
      const list = Array.isArray(messages) ? messages.map(String) : undefined;
      return {
        type: 'about:blank',
        title: httpTitle(status, exception.message),
        status,
        detail: list ? list.join('; ') : typeof messages === 'string' ? messages : exception.message,
        ...(list ? { errors: list.map((message) => ({ message })) } : {}),
      };
    }
    this.logger.error(exception instanceof Error ? exception.stack ?? exception.message : String(exception));
    return { type: 'about:blank', title: 'Internal Server Error', status: 500, detail: 'The request could not be processed.' };
  }
}

function httpTitle(status: number, fallback: string): string {
  const titles: Record<number, string> = {
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
  };
  return titles[status] ?? fallback;
}
