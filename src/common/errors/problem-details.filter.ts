import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError } from './app-error';
import { instanceOf, internalProblem, problem, ProblemDetails, problemFromAppError, writeProblem } from './problem-details';

/**
 * Every error a Nest handler throws leaves as problem+json. Unexpected exceptions are logged with their
 * stack and answered with a generic 500 so nothing internal reaches the caller.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const instance = instanceOf(ctx.getRequest<Request>().originalUrl);
    writeProblem(res, this.toProblem(exception, instance));
  }

  private toProblem(exception: unknown, instance: string | undefined): ProblemDetails {
    if (exception instanceof AppError) return problemFromAppError(exception, instance);
    // Nest's own exceptions: the ValidationPipe's 400 (its messages become the itemized errors), 404 routes.
    if (exception instanceof HttpException) {
      const body = exception.getResponse();
      const messages = typeof body === 'object' && body && 'message' in body ? body.message : undefined;
      const list = Array.isArray(messages) ? messages.map(String) : undefined;
      const detail = list ? list.join('; ') : typeof messages === 'string' ? messages : exception.message;
      return problem(exception.getStatus(), detail, { instance, errors: list?.map((message) => ({ message })) });
    }
    this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    return internalProblem(instance);
  }
}
