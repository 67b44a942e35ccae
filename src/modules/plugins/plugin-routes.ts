import { Injectable, Logger } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { instanceOf, internalProblem, problem, problemFromAppError, writeProblem } from '../../common/errors/problem-details';
import { readLimitedBody } from '../../common/http/limited-body';
import { inRequestContext } from '../../common/logging/request-context';
import { SseResponse } from '../../common/http/sse-response';
import { jsonDepthExceeds } from '../../common/json-depth';
import { ErrorCode } from '../../common/errors/error-code';
import type { AppError } from '../../common/errors/app-error';
import type { PluginHttpRequest, PluginHttpResponse, PluginHttpRoute } from '../../plugin-sdk';
import { AdminGate } from '../admin';
import { reservedKeyIssues } from '../config';
import { AuthRefusals, type AuthEdge } from '../metrics';
import { asAppError, messageOf } from './plugin-errors';

/** Where plugins' routes live: `/plugins/<id>/…`. */
export const PLUGIN_ROUTE_PREFIX = '/plugins';
/** The largest request body a plugin's route is given. */
export const PLUGIN_BODY_LIMIT = 1024 * 1024;
/** A JSON body nested deeper than this is refused before the route sees it (as the gateway's own routes do). */
export const PLUGIN_BODY_DEPTH = 64;

interface CompiledRoute {
  route: PluginHttpRoute;
  segments: string[];
}

/**
 * The HTTP routes plugins registered, served at `/plugins/<id>/…` (and a bundled plugin's absolute paths) ahead of the
 * gateway's body parsers: the route is found (404 naming what exists, 405), the caller checked for a route an admin
 * role guards (exactly as `/admin`: AdminGate), the route's `precheck` run, the body read under PLUGIN_BODY_LIMIT
 * (413) and parsed when it is JSON (400; as for the gateway's own routes, not deeper than PLUGIN_BODY_DEPTH and no
 * reserved key names), then the plugin's `handle` answers, with a body or a stream of events. What it throws is
 * answered like the gateway's own errors: an `AppError` by its code (a 401 with the route's challenge, counted as a
 * refused credential), anything else a 500 that says nothing of it (the message is in the log, tagged with the plugin).
 */
@Injectable()
export class PluginRoutes {
  private readonly logger = new Logger('plugins');
  private readonly byPlugin = new Map<string, CompiledRoute[]>();
  /** Bundled plugins' routes at their own paths: path → method → the plugin and its route. */
  private readonly absolute = new Map<string, Map<string, { plugin: string; route: PluginHttpRoute }>>();

  constructor(
    private readonly gate: AdminGate,
    private readonly refusals: AuthRefusals,
  ) {}

  /** Puts a plugin's routes in place; throws (nothing put in place) when an absolute path is another plugin's. */
  set(plugin: string, routes: readonly PluginHttpRoute[]): void {
    if (!routes.length) return;
    for (const route of routes.filter((r) => r.absolute)) {
      const owner = this.absolute.get(route.path)?.get(route.method)?.plugin;
      if (owner && owner !== plugin) throw new Error(`route ${route.method} ${route.path} is already served by plugin ${owner}`);
    }
    for (const route of routes.filter((r) => r.absolute)) {
      let methods = this.absolute.get(route.path);
      if (!methods) this.absolute.set(route.path, (methods = new Map<string, { plugin: string; route: PluginHttpRoute }>()));
      methods.set(route.method, { plugin, route });
    }
    const relative = routes.filter((r) => !r.absolute);
    if (relative.length) {
      this.byPlugin.set(
        plugin,
        relative.map((route) => ({ route, segments: splitPath(route.path) })),
      );
    }
  }

  remove(plugin: string): void {
    this.byPlugin.delete(plugin);
    for (const [path, methods] of this.absolute) {
      for (const [method, entry] of methods) if (entry.plugin === plugin) methods.delete(method);
      if (!methods.size) this.absolute.delete(path);
    }
  }

  /** Mounted at `/plugins`. */
  readonly handler: RequestHandler = (req, res, next) => {
    // Served ahead of Nest (and its request logging): the request's log context is made here, so every line written
    // while it is handled — the run it starts included — carries its `reqId`.
    void inRequestContext(req, res, () => this.handle(req, res, next).catch((err: unknown) => this.failed(req, res, err)));
  };

  /**
   * Mounted at the root, for bundled plugins' absolute routes: one map lookup per request, and anything that is not
   * one of them goes on untouched.
   */
  readonly absoluteHandler: RequestHandler = (req, res, next) => {
    if (!this.absolute.size) return next();
    const methods = this.absolute.get(req.path);
    if (!methods) return next();
    const found = methods.get(req.method) ?? (req.method === 'HEAD' ? methods.get('GET') : undefined);
    if (!found) {
      res.setHeader('Allow', [...methods.keys()].join(', '));
      const instance = instanceOf(req.originalUrl);
      return writeProblem(res, problem(405, `${instance} does not answer ${req.method}`, { instance }));
    }
    void inRequestContext(req, res, () =>
      this.serve(req, res, found.plugin, found.route, {}, req.path).catch((err: unknown) => this.failed(req, res, err)),
    );
  };

  private failed(req: Request, res: Response, err: unknown): void {
    this.logger.error(`plugin route ${req.method} ${instanceOf(req.originalUrl)} failed: ${(err as Error)?.stack ?? String(err)}`);
    if (!res.headersSent) writeProblem(res, internalProblem(instanceOf(req.originalUrl)));
    else res.end();
  }

  private async handle(req: Request, res: Response, _next: NextFunction): Promise<void> {
    const instance = instanceOf(req.originalUrl);
    // Mounted at /plugins: req.url is what follows, `/<id>/<path>`.
    const [id, ...rest] = splitPath(req.url.split('?')[0]);
    const routes = id ? this.byPlugin.get(safeDecode(id)) : undefined;
    if (!routes) return writeProblem(res, problem(404, `no plugin serves ${instance}`, { instance }));
    const segments = rest.map((s) => safeDecode(s));
    const matching = routes.map((r) => ({ r, params: matchSegments(r.segments, segments) })).filter((m) => m.params);
    const found = matching.find((m) => m.r.route.method === req.method || (req.method === 'HEAD' && m.r.route.method === 'GET'));
    if (!found) {
      if (!matching.length) return writeProblem(res, problem(404, `plugin ${id} has no route ${instance}`, { instance }));
      res.setHeader('Allow', [...new Set(matching.map((m) => m.r.route.method))].join(', '));
      return writeProblem(res, problem(405, `${instance} does not answer ${req.method}`, { instance }));
    }
    await this.serve(req, res, decodeURIComponent(id), found.r.route, found.params ?? {}, `/${rest.join('/')}`);
  }

  private async serve(
    req: Request,
    res: Response,
    plugin: string,
    route: PluginHttpRoute,
    params: Record<string, string>,
    path: string,
  ): Promise<void> {
    const instance = instanceOf(req.originalUrl);
    if (route.auth !== 'public' && !(await this.gate.admits(req, res, route.auth))) return;
    const head: Omit<PluginHttpRequest, 'body' | 'rawBody'> = {
      method: req.method,
      path,
      headers: req.headers,
      query: Object.fromEntries(new URLSearchParams(req.url.split('?')[1] ?? '')),
    };
    let answer: PluginHttpResponse;
    try {
      await route.precheck?.(head);
      const body = await readBody(req);
      if ('problem' in body) {
        if (body.problem.status === 413) res.setHeader('Connection', 'close');
        return writeProblem(res, { ...body.problem, instance });
      }
      answer = await route.handle({ ...head, body: body.value, rawBody: body.bytes, params });
    } catch (err) {
      const known = asAppError(err);
      if (known) return this.refuse(req, res, plugin, route, known, instance);
      this.logger.error({ plugin }, `plugin ${plugin}: route ${route.method} ${route.path} threw: ${(err as Error)?.stack ?? String(err)}`);
      return writeProblem(res, internalProblem(instance));
    }
    if (answer?.events) return this.stream(res, plugin, route, answer);
    send(res, answer ?? {});
  }

  /** An `AppError` the route threw, as problem+json; a refused credential gets the route's challenge and is counted. */
  private refuse(req: Request, res: Response, plugin: string, route: PluginHttpRoute, err: AppError, instance: string | undefined): void {
    if (err.code === ErrorCode.Unauthenticated) {
      if (route.challenge) res.setHeader('WWW-Authenticate', route.challenge);
      this.refusals.refused(authEdgeOf(plugin), req);
    }
    writeProblem(res, problemFromAppError(err, instance));
  }

  /** The route's events as Server-Sent Events, until the iterable ends or the client goes away. */
  private async stream(res: Response, plugin: string, route: PluginHttpRoute, answer: PluginHttpResponse): Promise<void> {
    for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
    if (answer.status) res.statusCode = answer.status;
    const sse = new SseResponse(res);
    const iterator = answer.events![Symbol.asyncIterator]();
    const stop = () => void iterator.return?.();
    res.on('close', stop);
    try {
      sse.flush();
      for (let next = await iterator.next(); !next.done && sse.open; next = await iterator.next()) {
        sse.json(next.value.event, next.value.data);
      }
    } catch (err) {
      this.logger.error({ plugin }, `plugin ${plugin}: route ${route.method} ${route.path}: its event stream threw: ${messageOf(err)}`);
      sse.json('error', { message: 'the stream failed' });
    } finally {
      res.off('close', stop);
      sse.end();
    }
  }
}

/** The edge a plugin's refused credential is counted at: a bundled plugin that serves one of the gateway's edges keeps its name. */
function authEdgeOf(plugin: string): AuthEdge {
  return plugin === 'http' || plugin === 'openai' ? plugin : 'plugin';
}

function send(res: Response, answer: PluginHttpResponse): void {
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
