import type { IncomingMessage } from 'node:http';

/** The `Last-Event-ID` header of a client resuming a stream (the SSE reconnection header); absent when not resuming. */
export function lastEventIdOf(req: IncomingMessage): string | undefined {
  const value = req.headers['last-event-id'];
  return typeof value === 'string' ? value : undefined;
}
