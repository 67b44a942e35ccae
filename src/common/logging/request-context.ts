import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PinoLogger } from 'nestjs-pino';
import { storage, Store } from 'nestjs-pino/storage';

/** The response header that names the request's id, so a client can quote it and an operator find its lines. */
export const REQUEST_ID_HEADER = 'x-request-id';
/** An id a caller (or a proxy in front) sent is kept when it is this tame: it lands in log lines as it is. */
const CALLER_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * The id of a request: the caller's `X-Request-Id` when it is short and plain (a proxy's id then correlates its
 * lines with ours), else a new one. Set on the response too. pino-http calls this for every request through express;
 * the handlers served ahead of express (`/a2a`) through `inRequestContext`.
 */
export function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const sent = req.headers[REQUEST_ID_HEADER];
  const id = typeof sent === 'string' && CALLER_REQUEST_ID.test(sent) ? sent : randomUUID();
  if (!res.headersSent) res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/**
 * Runs a request served ahead of express with the same log context pino-http gives express requests: every line
 * written while it is handled — and by the work it starts, such as the agent run — carries its `reqId`.
 */
export function inRequestContext<T>(req: IncomingMessage, res: ServerResponse, handle: () => T): T {
  const root = PinoLogger.root;
  if (!root) return handle();
  const id = requestIdOf(req, res);
  (req as IncomingMessage & { id?: string }).id = id;
  return storage.run(lazyRequestStore(root, id), handle);
}

type RootLogger = NonNullable<typeof PinoLogger.root>;

/**
 * The request's log context, whose logger (a pino child with the `reqId`) is made when its first line is written:
 * most A2A requests write none at the configured level, and a child costs more than the request's routing. A field
 * assigned later (PinoLogger.assign sets `logger`) replaces it as it would on a plain store.
 */
function lazyRequestStore(root: RootLogger, reqId: string): Store {
  const store = new Store(root);
  let logger: RootLogger | undefined;
  Object.defineProperty(store, 'logger', {
    get: () => (logger ??= root.child({ reqId })),
    set: (assigned: RootLogger) => (logger = assigned),
    enumerable: true,
  });
  return store;
}
