import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import * as path from 'node:path';

/**
 * The test suite's record of what the gateway answered, for the check of every response against the OpenAPI
 * document (test/support/openapi-contract). Off unless this variable names a directory: then each process
 * appends one JSON line per response to `responses-<pid>.jsonl` there and writes the document it serves to
 * `openapi-<pid>.json`. Bodies are recorded as sent (after the secret masker), so nothing leaks that a client
 * would not have seen; a deployment never sets it.
 */
export const RESPONSE_LOG_DIR_ENV = 'CLAWGATE_RESPONSE_LOG_DIR';

/** Bodies longer than this are recorded without their text (`truncated`): no admin answer comes near it. */
const MAX_RECORDED_BODY_BYTES = 512 * 1024;

export interface RecordedResponse {
  method: string;
  /** The request target as received: path and query. */
  url: string;
  status: number;
  contentType: string | null;
  /** UTF-8 text of the body; absent for an event stream and for a body over the cap. */
  body?: string;
  truncated?: boolean;
}

/** The directory to record into, when the suite asked for it. */
export function responseLogDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env[RESPONSE_LOG_DIR_ENV]?.trim() || undefined;
}

export function writeServedDocument(dir: string, document: unknown): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `openapi-${process.pid}.json`), JSON.stringify(document));
}

/**
 * Records every response of `server`. Installed as the first 'request' listener, so its wrappers of
 * `write`/`end` see the bytes every later layer (the secret masker included) finally sends.
 */
export function recordResponses(server: Server, dir: string): void {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `responses-${process.pid}.jsonl`);
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    // Read now: express rewrites req.url below a mount point.
    const method = req.method ?? '';
    const url = req.url ?? '';
    const chunks: Buffer[] = [];
    let size = 0;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      if (size > MAX_RECORDED_BODY_BYTES) return;
      const buf = Buffer.isBuffer(chunk)
        ? chunk
        : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
      size += buf.length;
      if (size <= MAX_RECORDED_BODY_BYTES) chunks.push(buf);
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.write = ((...args: unknown[]) => {
      keep(args[0], args[1]);
      return write(...args);
    }) as typeof res.write;
    res.end = ((...args: unknown[]) => {
      keep(args[0], args[1]);
      return end(...args);
    }) as typeof res.end;
    res.once('finish', () => {
      const contentType = contentTypeOf(res);
      const record: RecordedResponse = { method, url, status: res.statusCode, contentType };
      if (size > MAX_RECORDED_BODY_BYTES) record.truncated = true;
      else if (!contentType?.startsWith('text/event-stream')) record.body = Buffer.concat(chunks).toString('utf8');
      appendFileSync(file, `${JSON.stringify(record)}\n`);
    });
  });
}

/** The Content-Type sent: set with setHeader, or passed straight to writeHead (then only in the header text). */
function contentTypeOf(res: ServerResponse): string | null {
  const set = res.getHeader('content-type');
  if (set !== undefined) return String(set);
  const head = (res as unknown as { _header?: string })._header ?? '';
  return /^content-type:\s*(.+?)\r?$/im.exec(head)?.[1] ?? null;
}
