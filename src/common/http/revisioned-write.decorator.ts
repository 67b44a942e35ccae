import {
  applyDecorators,
  CallHandler,
  createParamDecorator,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  UseInterceptors,
} from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { map, Observable } from 'rxjs';
import { ProblemDto } from '../errors/problem.dto';
import { requireIfMatch } from './if-match';

/**
 * Writes to the config are optimistic: the caller sends the revision it read as If-Match and gets the new
 * one back as the ETag. These pieces do that once for every such handler.
 */

/** The revision the caller read, from If-Match (428 when missing). */
export const IfMatch = createParamDecorator((_data: unknown, ctx: ExecutionContext): string =>
  requireIfMatch(ctx.switchToHttp().getRequest<Request>().headers['if-match']),
);

/** Sets `ETag: "<revision>"` from the `revision` of the handler's result. */
@Injectable()
export class RevisionEtagInterceptor implements NestInterceptor {
  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const res = ctx.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((result: unknown) => {
        const revision = (result as { revision?: unknown } | undefined)?.revision;
        if (typeof revision === 'string') res.setHeader('ETag', `"${revision}"`);
        return result;
      }),
    );
  }
}

const IF_MATCH_HEADER = {
  name: 'If-Match',
  required: true,
  description: 'The config revision you read (ETag of GET /admin/config). Stale → 412; missing → 428.',
};
const WRITE_ERRORS = [
  { status: 400, type: ProblemDto, description: 'Malformed request (body or id); detail and errors[] name each field.' },
  { status: 412, type: ProblemDto, description: 'The config changed since the revision in If-Match.' },
  { status: 422, type: ProblemDto, description: 'The edit would make the config invalid; nothing was written.' },
  { status: 409, type: ProblemDto, description: "The entry lives in an $include'd file." },
  { status: 428, type: ProblemDto, description: 'If-Match is missing.' },
];

/** A handler that writes the config: documents If-Match and its errors, and answers with the new ETag. */
export function RevisionedWrite(): MethodDecorator {
  return applyDecorators(ApiHeader(IF_MATCH_HEADER), ...WRITE_ERRORS.map((r) => ApiResponse(r)), UseInterceptors(RevisionEtagInterceptor));
}
