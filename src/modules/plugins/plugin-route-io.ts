import type { Request, Response } from 'express';
import { problem } from '../../common/errors/problem-details';
import { readLimitedBody } from '../../common/http/limited-body';
import { jsonDepthExceeds } from '../../common/json-depth';
import type { PluginHttpResponse } from '../../plugin-sdk';
import { reservedKeyIssues } from '../config';

/** The largest request body a plugin's route is given. */
export const PLUGIN_BODY_LIMIT = 1024 * 1024;
/** A JSON body nested deeper than this is refused before the route sees it (as the gateway's own routes do). */
export const PLUGIN_BODY_DEPTH = 64;

export function send(res: Response, answer: PluginHttpResponse): void {
  res.statusCode = answer.status ?? 200;
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  const body = answer.body;
  if (body === undefined || body === null) return void res.end();
  // Through `res.send`, which the secret masker wraps (bootstrap): a body never carries a configured secret.
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    if (!res.hasHeader('Content-Type'))
      res.setHeader('Content-Type', typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/octet-stream');
    return void res.send(body);
  }
  if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.send(JSON.stringify(body));
}

export type Body = { value: unknown; bytes: Buffer } | { problem: ReturnType<typeof problem> };

export async function readBody(req: Request, parse = true): Promise<Body> {
  const none = Buffer.alloc(0);
  if (req.method === 'GET' || req.method === 'HEAD') return { value: undefined, bytes: none };
  const read = await readLimitedBody(req, PLUGIN_BODY_LIMIT);
  if (read.kind === 'too-large') return { problem: problem(413, `request body exceeds ${PLUGIN_BODY_LIMIT} bytes`) };
  if (read.kind === 'aborted') return { problem: problem(400, 'request body was not received whole') };
  if (!read.bytes.length) return { value: undefined, bytes: none };
  // A route that reads its own format gets the bytes only.
  if (!parse) return { value: undefined, bytes: read.bytes };
  const text = read.bytes.toString('utf8');
  if (!/\bjson\b/i.test(String(req.headers['content-type'] ?? ''))) return { value: text, bytes: read.bytes };
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (err) {
    return { problem: problem(400, `request body is not valid JSON: ${(err as Error).message}`) };
  }
  // The same shape limits as the gateway's own JSON bodies (bootstrap's bodyShapeLimits).
  if (jsonDepthExceeds(value, PLUGIN_BODY_DEPTH))
    return { problem: problem(400, `request body is nested more than ${PLUGIN_BODY_DEPTH} levels deep`) };
  const reserved = reservedKeyIssues(value);
  if (reserved.length) {
    const items = reserved.map((issue) => ({ path: issue.path, message: issue.message }));
    return { problem: problem(400, `request body: ${items.map((i) => `${i.path}: ${i.message}`).join('; ')}`, { errors: items }) };
  }
  return { value, bytes: read.bytes };
}

export function splitPath(path: string): string[] {
  return path.split('/').filter(Boolean);
}

export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The `:name` parameters when `segments` fit the route's, else undefined. */
export function matchSegments(route: string[], segments: string[]): Record<string, string> | undefined {
  if (route.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of route.entries()) {
    if (part.startsWith(':')) params[part.slice(1)] = segments[i];
    else if (part !== segments[i]) return undefined;
  }
  return params;
}
