import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on a free port of the loopback interface, as every platform fake does. */
export async function listenLocal(server: Server): Promise<void> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
}

/** `http://127.0.0.1:<port>` of a listening server. */
export function localOrigin(server: Server): string {
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** Drops open (keep-alive, long-poll) connections so that closing does not wait for clients. */
export async function closeServer(server: Server | undefined): Promise<void> {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
}

/** The whole request body, as bytes. */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The parameters of a non-empty JSON body (which must be an object) or URL-encoded form body (whose object values
 * are JSON strings, as the platforms' clients send them); `refuse` words the error for any other body.
 */
export function jsonOrFormParams(body: string, mediaType: string, refuse: (what: string) => Error): Record<string, unknown> {
  if (mediaType === 'application/json') {
    const parsed = JSON.parse(body) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw refuse('JSON body must be an object');
    return parsed as Record<string, unknown>;
  }
  if (mediaType === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(body));
  throw refuse(`unsupported content type "${mediaType}"`);
}

/** The media type of a request (`multipart/form-data` of `multipart/form-data; boundary=…`), lower-cased. */
export function mediaTypeOf(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}
