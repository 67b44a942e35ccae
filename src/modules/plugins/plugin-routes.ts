import { Injectable, Logger, Optional } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { instanceOf, internalProblem, problem, writeProblem } from '../../common/errors/problem-details';
import { inRequestContext } from '../../common/logging/request-context';
import { SseResponse } from '../../common/http/sse-response';
import type { PluginHttpRequest, PluginHttpResponse, PluginHttpRoute } from '../../plugin-sdk';
import { AdminGate } from '../admin';
import { ConfigStore } from '../config';
import { AuthRefusals, type AuthEdge } from '../metrics';
import { messageOf } from './plugin-errors';
import { answerError, RouteRefusal, type PluginRouteAnswerer } from './plugin-route-errors';
import { matchSegments, readBody, safeDecode, send, splitPath } from './plugin-route-io';
import { admitByGate } from './plugin-key-gate';

export { PLUGIN_BODY_DEPTH, PLUGIN_BODY_LIMIT } from './plugin-route-io';

/** Where plugins' routes live: `/plugins/<id>/…`. */
export const PLUGIN_ROUTE_PREFIX = '/plugins';

interface CompiledRoute {
  route: PluginHttpRoute;
  segments: string[];
}

interface Owned {
  plugin: string;
  route: PluginHttpRoute;
}

/**
 * The HTTP routes plugins registered, served at `/plugins/<id>/…` (and a bundled plugin's absolute paths) ahead of the
 * gateway's body parsers: the route is found (404 naming what exists, 405), the caller checked for a route an admin
 * role guards (exactly as `/admin`: AdminGate), the route's `precheck` run, then its key gate (401, 429), the body read
 * under PLUGIN_BODY_LIMIT (413) and parsed when it is JSON (400; as for the gateway's own routes, not deeper than
 * PLUGIN_BODY_DEPTH and no reserved key names) unless the route reads its own, then the plugin's `handle` answers,
 * with a body or a stream of events. What it throws is answered like the gateway's own errors — or in the route's own
 * shape when it has an `errorResponse` (plugin-route-errors.ts): an `AppError` by its code (a 401 with the route's
 * challenge, counted as a refused credential), anything else a 500 that says nothing of it (the message is in the log,
 * tagged with the plugin).
 */
@Injectable()
export class PluginRoutes {
  private readonly logger = new Logger('plugins');
  private readonly byPlugin = new Map<string, CompiledRoute[]>();
  /** Bundled plugins' routes at their own paths: path → method (`*` for any) → the plugin and its route. */
  private readonly absolute = new Map<string, Map<string, Owned>>();
  /** Bundled plugins' routes over a path and everything below it (`/v1/*`): prefix → method → the plugin and its route. */
  private readonly prefixes = new Map<string, Map<string, Owned>>();
  private readonly answerer: PluginRouteAnswerer;

  constructor(
    private readonly gate: AdminGate,
    refusals: AuthRefusals,
    @Optional() private readonly config?: ConfigStore,
  ) {
    this.answerer = {
      refused: (req, plugin) => refusals.refused(authEdgeOf(plugin), req),
      log: (plugin, line) => this.logger.error({ plugin }, line),
    };
  }

  /** Puts a plugin's routes in place; throws (nothing put in place) when an absolute path is another plugin's. */
  set(plugin: string, routes: readonly PluginHttpRoute[]): void {
    if (!routes.length) return;
    for (const route of routes.filter((r) => r.absolute)) {
      const { table, path } = this.tableOf(route.path);
      const owner = table.get(path)?.get(route.method)?.plugin;
      if (owner && owner !== plugin) throw new Error(`route ${route.method} ${route.path} is already served by plugin ${owner}`);
    }
    for (const route of routes.filter((r) => r.absolute)) {
      const { table, path } = this.tableOf(route.path);
      let methods = table.get(path);
      if (!methods) table.set(path, (methods = new Map<string, Owned>()));
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
    for (const table of [this.absolute, this.prefixes]) {
      for (const [path, methods] of table) {
        for (const [method, entry] of methods) if (entry.plugin === plugin) methods.delete(method);
        if (!methods.size) table.delete(path);
      }
    }
  }

  /** Mounted at `/plugins`. */
  readonly handler: RequestHandler = (req, res, next) => {
    // Served ahead of Nest (and its request logging): the request's log context is made here, so every line written
    // while it is handled — the run it starts included — carries its `reqId`.
    void inRequestContext(req, res, () => this.handle(req, res, next).catch((err: unknown) => this.failed(req, res, err)));
  };

  /**
   * Mounted at the root, for bundled plugins' absolute routes: one map lookup per request (and one per prefix route),
   * and anything that is not one of them goes on untouched.
   */
  readonly absoluteHandler: RequestHandler = (req, res, next) => {
    if (!this.absolute.size && !this.prefixes.size) return next();
    const methods = this.absolute.get(req.path) ?? this.prefixOf(req.path);
    if (!methods) return next();
    const found = methods.get(req.method) ?? (req.method === 'HEAD' ? methods.get('GET') : undefined) ?? methods.get('*');
    if (!found) {
      res.setHeader('Allow', [...methods.keys()].join(', '));
      const instance = instanceOf(req.originalUrl);
      return writeProblem(res, problem(405, `${instance} does not answer ${req.method}`, { instance }));
    }
    void inRequestContext(req, res, () =>
      this.serve(req, res, found.plugin, found.route, {}, req.path).catch((err: unknown) => this.failed(req, res, err)),
    );
  };

  private tableOf(path: string): { table: Map<string, Map<string, Owned>>; path: string } {
    return path.endsWith('/*') ? { table: this.prefixes, path: path.slice(0, -2) } : { table: this.absolute, path };
  }

  private prefixOf(path: string): Map<string, Owned> | undefined {
    for (const [prefix, methods] of this.prefixes) if (path === prefix || path.startsWith(`${prefix}/`)) return methods;
    return undefined;
  }

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
    const found = matching.find(
      (m) => m.r.route.method === req.method || (req.method === 'HEAD' && m.r.route.method === 'GET') || m.r.route.method === '*',
    );
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
      if (route.keyGate) {
        const verdict = admitByGate(route.keyGate, req, this.config!);
        if (verdict.kind !== 'admitted') throw RouteRefusal.ofGate(verdict);
        head.key = verdict.key;
      }
      const body = await readBody(req, route.parseBody !== false);
      if ('problem' in body) throw RouteRefusal.ofBody(body.problem);
      answer = await route.handle({ ...head, body: body.value, rawBody: body.bytes, params });
    } catch (err) {
      return answerError(this.answerer, req, res, plugin, route, err);
    }
    if (answer?.events) return this.stream(res, plugin, route, answer);
    send(res, answer ?? {});
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
        const { event, data, text } = next.value;
        if (typeof text === 'string') sse.event(event, text);
        else sse.json(event, data);
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
export function authEdgeOf(plugin: string): AuthEdge {
  // The bundled endpoints keep the edges they had in the core; the OpenAI one's plugin id is not `openai`, which is
  // OpenClaw's own OpenAI provider plugin (a file's plugins.entries.openai is that plugin's, not this endpoint's).
  return plugin === 'http' ? 'http' : plugin === 'openai-endpoint' ? 'openai' : 'plugin';
}
