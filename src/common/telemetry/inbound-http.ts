import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { SpanKind } from '@opentelemetry/api';
import { SEMCONV } from './span-attributes';
import { markFailed, Tracing } from './tracing';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);
/** Probes and scrapes: polled every few seconds by machines, one trace each would bury the traces that matter. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Routes served outside express's router (the `/a2a` fast path, the MCP server's own mount, and the routes bundled plugins
 * serve ahead of the body parsers: the OpenAI-compatible endpoint's, the http channel's), named
 * by their template so span names stay few; Nest's routes are named by express's matched route at the end.
 */
function routeOfPath(path: string): string | undefined {
  if (path === '/a2a/v1' || path === '/a2a/v1/') return '/a2a/v1';
  if (path.startsWith('/a2a/v1/')) return '/a2a/v1/{rest}';
  if (path === '/v1/chat/completions' || path === '/v1/models') return path;
  if (path === '/mcp' || path === '/mcp/') return '/mcp';
  if (path === '/channels/http/messages') return path;
  return undefined;
}

/**
 * Puts a server span around every request of `server` — the admin API, the channels, `/a2a` (served ahead of
 * express), `/v1` and `/mcp` alike — continuing the caller's W3C trace context (`traceparent`, `tracestate`; an invalid
 * header starts a new trace); health probes and the metrics scrape are left out. The span is active while the
 * request is handled, so every run it starts is its child. HTTP semantic conventions; no query string, header or
 * body is recorded. Install it after every other
 * 'request' listener (it wraps them all); only when telemetry is on, so a gateway without it pays nothing.
 */
export function traceInboundHttp(server: Server, tracing: Tracing): void {
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = pathOf(req.url);
    if (UNTRACED_PATHS.has(path)) {
      for (const listener of listeners) listener.call(server, req, res);
      return;
    }
    const method = KNOWN_METHODS.has(req.method ?? '') ? (req.method as string) : '_OTHER';
    const parent = tracing.extract(req.headers);
    const span = tracing.startSpan(
      method,
      {
        kind: SpanKind.SERVER,
        attributes: { [SEMCONV.httpMethod]: method, [SEMCONV.urlPath]: path, [SEMCONV.urlScheme]: 'http' },
      },
      parent,
    );
    let ended = false;
    const end = (closedEarly: boolean) => {
      if (ended) return;
      ended = true;
      const route = routeOfPath(path) ?? expressRoute(req);
      if (route) {
        span.setAttribute(SEMCONV.httpRoute, route);
        span.updateName(`${method} ${route}`);
      }
      if (res.headersSent) span.setAttribute(SEMCONV.httpStatus, res.statusCode);
      if (closedEarly) markFailed(span, 'connection_closed');
      else if (res.statusCode >= 500) markFailed(span, String(res.statusCode));
      span.end();
    };
    res.once('finish', () => end(false));
    res.once('close', () => end(!res.writableFinished));
    tracing.withSpan(
      span,
      () => {
        for (const listener of listeners) listener.call(server, req, res);
      },
      parent,
    );
  });
}

/** The path of the request target without its query (an absolute-form target gives its path too). */
function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  if (!raw.startsWith('/')) {
    try {
      return new URL(raw).pathname;
    } catch {
      return '/';
    }
  }
  const q = raw.search(/[?#]/);
  return q < 0 ? raw : raw.slice(0, q);
}

/** The template of the express route that answered (Nest's controllers), when there was one. */
function expressRoute(req: IncomingMessage): string | undefined {
  const route = (req as IncomingMessage & { route?: { path?: unknown }; baseUrl?: unknown }).route;
  if (typeof route?.path !== 'string') return undefined;
  const base = (req as { baseUrl?: unknown }).baseUrl;
  return `${typeof base === 'string' ? base : ''}${route.path}`;
}
