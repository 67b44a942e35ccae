import type { INestApplication } from '@nestjs/common';
import { A2aHttpEndpoint } from './a2a-http.endpoint';

/**
 * Mounts the A2A JSON-RPC endpoint on the express instance. Call it before the global body parsers are
 * registered: `/a2a` must read its own raw body (1 MiB limit, checked before any JSON parsing), and a parser
 * that ran first would have consumed the stream under the admin API's larger limit.
 */
export function mountA2aEndpoint(app: INestApplication): void {
  app.use('/a2a', app.get(A2aHttpEndpoint).handle);
}
