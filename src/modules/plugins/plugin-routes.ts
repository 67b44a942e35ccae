import { Injectable, Logger } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { instanceOf, internalProblem, problem, problemFromAppError, writeProblem } from '../../common/errors/problem-details';
import { readLimitedBody } from '../../common/http/limited-body';
import type { PluginHttpResponse, PluginHttpRoute } from '../../plugin-sdk';
import { AdminGate } from '../admin';
import { asAppError } from './plugin-errors';

/** Where plugins' routes live: `/plugins/<id>/…`. */
export const PLUGIN_ROUTE_PREFIX = '/plugins';
/** The largest request body a plugin's route is given. */
export const PLUGIN_BODY_LIMIT = 1024 * 1024;

interface CompiledRoute {
  route: PluginHttpRoute;
  segments: string[];
}

/**
 * The HTTP routes plugins registered, served at `/plugins/<id>/…` ahead of the gateway's body parsers: the route is
 * found (404 naming what exists, 405), the caller checked for a route an admin role guards (exactly as `/admin`:
 * AdminGate), the body read under PLUGIN_BODY_LIMIT (413) and parsed when it is JSON (400), then the plugin's
 * `handle` answers. What it throws is answered like the gateway's own errors: an `AppError` by its code, anything
 * else a 500 that says nothing of it (the message is in the log, tagged with the plugin).
 */
@Injectable()
export class PluginRoutes {
  private readonly logger = new Logger('plugins');
  private readonly byPlugin = new Map<string, CompiledRoute[]>();

  constructor(private readonly gate: AdminGate) {}

  set(plugin: string, routes: readonly PluginHttpRoute[]): void {
    if (!routes.length) return;
    this.byPlugin.set(
      plugin,
      routes.map((route) => ({ route, segments: splitPath(route.path) })),
    );
  }

  remove(plugin: string): void {
    this.byPlugin.delete(plugin);
  }

  readonly handler: RequestHandler = (req, res, next) => {
    this.handle(req, res, next).catch((err: unknown) => {
      this.logger.error(`plugin route ${req.method} ${instanceOf(req.originalUrl)} failed: ${(err as Error)?.stack ?? String(err)}`);
      writeProblem(res, internalProblem(instanceOf(req.originalUrl)));
    });
  };

  private async handle(req: Request, res: Response, _next: NextFunction): Promise<void> {
    const instance = instanceOf(req.originalUrl);
    // Mounted at /plugins: req.url is what follows, `/<id>/<path>`.
    const [id, ...rest] = splitPath(req.url.split('?')[0]);
    const routes = id ? this.byPlugin.get(decodeURIComponent(id)) : undefined;
    if (!routes) return writeProblem(res, problem(404, `no plugin serves ${instance}`, { instance }));
    const segments = rest.map((s) => safeDecode(s));
    const matching = routes.map((r) => ({ r, params: matchSegments(r.segments, segments) })).filter((m) => m.params);
    const found = matching.find((m) => m.r.route.method === req.method || (req.method === 'HEAD' && m.r.route.method === 'GET'));
    if (!found) {
      if (!matching.length) return writeProblem(res, problem(404, `plugin ${id} has no route ${instance}`, { instance }));
      res.setHeader('Allow', [...new Set(matching.map((m) => m.r.route.method))].join(', '));
      return writeProblem(res, problem(405, `${instance} does not answer ${req.method}`, { instance }));
    }
    const { route } = found.r;
    if (route.auth !== 'public' && !(await this.gate.admits(req, res, route.auth))) return;
    const body = await readBody(req);
    if ('problem' in body) {
      if (body.problem.status === 413) res.setHeader('Connection', 'close');
      return writeProblem(res, { ...body.problem, instance });
    }
    let answer: PluginHttpResponse;
    try {
      answer = await route.handle({
        method: req.method,
        path: `/${rest.join('/')}`,
        headers: req.headers,
        query: Object.fromEntries(new URLSearchParams(req.url.split('?')[1] ?? '')),
        body: body.value,
        rawBody: body.bytes,
        params: found.params ?? {},
      });
    } catch (err) {
      const known = asAppError(err);
      if (known) return writeProblem(res, problemFromAppError(known, instance));
      this.logger.error({ plugin: id }, `plugin ${id}: route ${route.method} ${route.path} threw: ${(err as Error)?.stack ?? String(err)}`);
      return writeProblem(res, internalProblem(instance));
    }
    send(res, answer ?? {});
  }
}

function send(res: Response, answer: PluginHttpResponse): void {
  res.statusCode = answer.status ?? 200;
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  const body = answer.body;
  if (body === undefined || body === null) return void res.end();
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    if (!res.hasHeader('Content-Type'))
      res.setHeader('Content-Type', typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/octet-stream');
    return void res.end(body);
  }
  if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

type Body = { value: unknown; bytes: Buffer } | { problem: ReturnType<typeof problem> };

async function readBody(req: Request): Promise<Body> {
  const none = Buffer.alloc(0);
  if (req.method === 'GET' || req.method === 'HEAD') return { value: undefined, bytes: none };
  const read = await readLimitedBody(req, PLUGIN_BODY_LIMIT);
  if (read.kind === 'too-large') return { problem: problem(413, `request body exceeds ${PLUGIN_BODY_LIMIT} bytes`) };
  if (read.kind === 'aborted') return { problem: problem(400, 'request body was not received whole') };
  if (!read.bytes.length) return { value: undefined, bytes: none };
  const text = read.bytes.toString('utf8');
  if (!/\bjson\b/i.test(String(req.headers['content-type'] ?? ''))) return { value: text, bytes: read.bytes };
  try {
    return { value: JSON.parse(text) as unknown, bytes: read.bytes };
  } catch (err) {
    return { problem: problem(400, `request body is not valid JSON: ${(err as Error).message}`) };
  }
}

function splitPath(path: string): string[] {
  return path.split('/').filter(Boolean);
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The `:name` parameters when `segments` fit the route's, else undefined. */
function matchSegments(route: string[], segments: string[]): Record<string, string> | undefined {
  if (route.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of route.entries()) {
    if (part.startsWith(':')) params[part.slice(1)] = segments[i];
    else if (part !== segments[i]) return undefined;
  }
  return params;
}
