import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { inRequestContext } from '../logging/request-context';

/** A handler that answers the requests it recognises and returns true; false leaves the request to the framework. */
export type AheadHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Puts `handler` in front of whatever already serves `server` (the framework: express with its middleware
 * stack, Nest's router, the request logger). The server keeps one 'request' listener that asks `handler`
 * first and hands every request it declines to the framework's listeners, unchanged. Call it after the
 * framework has attached its listener (Nest does when the app is created) and before the server listens.
 * `handler` must not throw: no framework stands behind it to turn an exception into a 500.
 *
 * For an endpoint whose every byte is written by its own code, the framework only adds work per request
 * (router walk, middleware that never applies, request/response decoration); see docs/decisions.md.
 */
export function serveAhead(server: Server, handler: AheadHandler): void {
  const framework = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // The request's id and log context (pino-http's, for what express serves) before the handler sees it.
    if (inRequestContext(req, res, () => handler(req, res))) return;
    for (const listener of framework) listener.call(server, req, res);
  });
}
