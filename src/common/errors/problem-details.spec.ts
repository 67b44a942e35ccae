import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError } from './app-error';
import { ErrorCode } from './error-code';
import { HTTP_STATUS_BY_CODE, problem, problemFromAppError, writeProblem } from './problem-details';
import { registerSecretSource } from '../secrets/secret-mask';

describe('problem details (the HTTP edge)', () => {
  it.each<[ErrorCode, number, string]>([
    [ErrorCode.BadRequest, 400, 'Bad Request'],
    [ErrorCode.InvalidParams, 400, 'Bad Request'],
    [ErrorCode.Unauthenticated, 401, 'Unauthorized'],
    [ErrorCode.Forbidden, 403, 'Forbidden'],
    [ErrorCode.NotFound, 404, 'Not Found'],
    [ErrorCode.TaskNotFound, 404, 'Not Found'],
    [ErrorCode.MethodNotFound, 404, 'Not Found'],
    [ErrorCode.MethodNotAllowed, 405, 'Method Not Allowed'],
    [ErrorCode.ContentTypeNotSupported, 400, 'Bad Request'],
    [ErrorCode.Conflict, 409, 'Conflict'],
    [ErrorCode.PreconditionFailed, 412, 'Precondition Failed'],
    [ErrorCode.PayloadTooLarge, 413, 'Payload Too Large'],
    [ErrorCode.ConfigInvalid, 422, 'Unprocessable Entity'],
    [ErrorCode.PreconditionRequired, 428, 'Precondition Required'],
    [ErrorCode.RateLimited, 429, 'Too Many Requests'],
    [ErrorCode.Internal, 500, 'Internal Server Error'],
    [ErrorCode.UnsupportedOperation, 501, 'Not Implemented'],
    [ErrorCode.UpstreamFailed, 502, 'Bad Gateway'],
    [ErrorCode.Unavailable, 503, 'Service Unavailable'],
    [ErrorCode.UpstreamTimeout, 504, 'Gateway Timeout'],
  ])('maps %s to %i %s', (code, status, title) => {
    expect(problemFromAppError(new AppError(code, 'what happened'), '/x')).toEqual({
      type: 'about:blank',
      title,
      status,
      detail: 'what happened',
      instance: '/x',
    });
  });

  it('covers every code of the enum', () => {
    expect(Object.keys(HTTP_STATUS_BY_CODE).sort()).toEqual(Object.values(ErrorCode).sort());
  });

  it('keeps itemized errors and leaves out what is not set', () => {
    const items = [{ path: 'agents.list[0].id', message: 'required' }];
    expect(problemFromAppError(new AppError(ErrorCode.ConfigInvalid, '1 error', items))).toEqual({
      type: 'about:blank',
      title: 'Unprocessable Entity',
      status: 422,
      detail: '1 error',
      errors: items,
    });
  });

  describe('writeProblem', () => {
    let server: Server;
    let url: string;
    let unregister: () => void;

    beforeAll(async () => {
      unregister = registerSecretSource(() => ['sk-very-secret-value']);
      server = createServer((req, res) => {
        res.setHeader('WWW-Authenticate', 'Bearer realm="test"');
        writeProblem(res, problem(401, `token sk-very-secret-value is not valid`, { instance: req.url }));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/p`;
    });
    afterAll(async () => {
      unregister();
      await new Promise((resolve) => server.close(resolve));
    });

    it('writes problem+json with its length, keeps headers set before, and masks known secrets', async () => {
      const res = await fetch(url);
      const text = await res.text();
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="test"');
      expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
      expect(JSON.parse(text)).toEqual({
        type: 'about:blank',
        title: 'Unauthorized',
        status: 401,
        detail: 'token [redacted] is not valid',
        instance: '/p',
      });
    });
  });
});
