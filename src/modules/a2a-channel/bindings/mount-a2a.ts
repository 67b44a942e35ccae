import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import { serveAhead } from '../../../common/http/serve-ahead';
import { A2aHttpEndpoint } from './json-rpc/json-rpc.endpoint';
import { A2A_MOUNT } from './mount-path';

/**
 * Serves `/a2a` with the plain `node:http` handler of A2aHttpEndpoint, ahead of express on the same server: the
 * endpoint writes every byte of its answers itself, so express's router and middleware would only add work per
 * request (docs/decisions.md#a2a-channel). Request targets the fast path does not parse itself (absolute-form,
 * `#`) reach the same endpoint through an express mount, so express's parsing decides them exactly as before.
 * Call it before the global body parsers are registered: `/a2a` reads its own raw body (1 MiB limit, checked
 * before any JSON parsing), and a parser that ran first would consume the stream under the admin API's limit.
 */
export function mountA2aEndpoint(app: NestExpressApplication): void {
  const endpoint = app.get(A2aHttpEndpoint);
  serveAhead(app.getHttpServer(), endpoint.serveAhead);
  app.use(A2A_MOUNT, (req: Request, res: Response) => endpoint.handle(req, res, req.path));
}
