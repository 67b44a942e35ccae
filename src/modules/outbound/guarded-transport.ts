import type { IncomingHttpHeaders } from 'node:http';
import { Inject, Injectable, Logger, OnModuleDestroy, Optional } from '@nestjs/common';
import { Agent, request } from 'undici';
import { Tracing } from '../../common/telemetry/tracing';
import { guardedFetch, type GuardedFetch } from './guarded-fetch';
import { type ConnectLookup, guardedLookup, HostResolver, systemResolver } from './guarded-lookup';
import { findRefusal, OutboundError, socketErrorCode } from './outbound-error';

/** No outbound call may take longer than this, whatever a caller asks for (docs/outbound.md#4-the-transport-guard). */
export const MAX_OUTBOUND_TIMEOUT_MS = 30_000;
/** Same guard: a response body larger than this is refused (the stream is aborted past it). */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export const OUTBOUND_TRANSPORT_OPTIONS = Symbol('OUTBOUND_TRANSPORT_OPTIONS');

export interface GuardedTransportOptions {
  /** Name resolution for hosts written as DNS names (tests inject one). Default: the system resolver. */
  resolver?: HostResolver;
  /** Default per-call timeout, clamped to MAX_OUTBOUND_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Where the per-call audit line goes. Default: the `outbound` logger. */
  audit?: (entry: OutboundAuditEntry) => void;
}

/**
 * Where a call goes: a URL the caller read from the config snapshot, with the setting it came from (named
 * in errors so the operator knows what to fix). There is deliberately no way to pass a URL that came from a
 * request: callers look the destination up in config by a name (peer, account), never take it as input.
 */
export interface ConfiguredDestination {
  url: string;
  /** Dotted config path of the URL, e.g. `channels.a2a.peers.hermes.url`. */
  setting: string;
}

export interface OutboundRequest {
  /** What the call is for (`a2a`, `webhook`, ...): the audit line's `kind`. */
  kind: string;
  destination: ConfiguredDestination;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Per-call timeout covering connect, headers and body; clamped to MAX_OUTBOUND_TIMEOUT_MS. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** `false`: the body is discarded unread (e.g. a webhook, where only the status matters). */
  readBody?: boolean;
  /**
   * Told each piece of the body as it arrives (a stream read as it comes: SSE); `false` stops reading — the rest is
   * discarded and the call resolves with what was read. The size cap and the timeout apply as always.
   */
  onBodyChunk?: (chunk: Buffer) => boolean | void;
  /** The largest body read [MAX_RESPONSE_BYTES]: a chat file's download takes the channel's `mediaMaxMb`. */
  maxResponseBytes?: number;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** Empty when `readBody` was false. */
  body: Buffer;
}

/** One line per call; never headers, bodies, paths or queries. `status` is the HTTP status or the failure. */
export interface OutboundAuditEntry {
  kind: string;
  host: string;
  status: number | string;
  durationMs: number;
}

/**
 * The one way the gateway calls out over HTTP (A2A peers, http-channel webhooks). Every call gets the same
 * guard: a destination from config, http(s) only, no credentials in the URL, a timeout of at most 30 s, no
 * redirects (a 3xx is an error and its Location is never requested), a 16 MiB response cap enforced while
 * streaming, and the non-public-address rule applied in the connector to the address actually dialled. With tracing
 * on, each call sends `traceparent`/`tracestate` of the span it is made in.
 */
@Injectable()
export class GuardedTransport implements OnModuleDestroy {
  private readonly logger = new Logger('outbound');
  private readonly agent: Agent;
  private readonly lookup: ConnectLookup;
  private readonly defaultTimeoutMs: number;
  private readonly audit: (entry: OutboundAuditEntry) => void;

  constructor(
    @Optional() @Inject(OUTBOUND_TRANSPORT_OPTIONS) options: GuardedTransportOptions = {},
    /** Every call carries the W3C trace context of the span it is made in (docs/telemetry.md#propagation). */
    @Optional() private readonly tracing: Tracing = new Tracing(),
  ) {
    // The lookup runs inside each socket's connect; undici never follows redirects on `request`.
    this.lookup = guardedLookup(options.resolver ?? systemResolver);
    this.agent = new Agent({ connect: { lookup: this.lookup } });
    this.defaultTimeoutMs = effectiveTimeout(options.timeoutMs);
    this.audit = options.audit ?? ((e) => this.logger.log(`outbound ${JSON.stringify(e)}`));
  }

  async request(req: OutboundRequest): Promise<OutboundResponse> {
    const started = performance.now();
    let host = '(invalid)';
    let status: number | string = 'error';
    try {
      const url = parseDestination(req.destination);
      host = url.host;
      const response = await this.send(url, req);
      status = response.status;
      return response;
    } catch (err) {
      if (err instanceof OutboundError) status = err.status ? `${err.failure} (HTTP ${err.status})` : err.failure;
      throw err;
    } finally {
      this.audit({ kind: req.kind, host, status, durationMs: Math.round(performance.now() - started) });
    }
  }

  /**
   * A `fetch` for a client library that speaks its own protocol to a configured URL (the MCP client's HTTP
   * transports): the address policy of this transport's connector, the configured origin only, no redirects, the
   * audit line per request (see guarded-fetch.ts for what differs from `request`). Throws an OutboundError
   * (`invalid_destination`) when the URL itself is unusable.
   */
  fetchFor(kind: string, destination: ConfiguredDestination): GuardedFetch {
    const configured = parseDestination(destination);
    // A pool of its own: its streams live as long as the caller's connection, which the caller closes (`close`),
    // not with this transport's pool at shutdown (the MCP client closes its connections after the runs drained).
    return guardedFetch(new Agent({ connect: { lookup: this.lookup } }), kind, destination, configured, this.audit);
  }

  async onModuleDestroy(): Promise<void> {
    // Graceful first; a peer stalling a request must not hold shutdown for longer than a second.
    await Promise.race([this.agent.close(), new Promise((r) => setTimeout(r, 1000).unref())]).catch(() => undefined);
    await this.agent.destroy().catch(() => undefined);
  }

  private async send(url: URL, req: OutboundRequest): Promise<OutboundResponse> {
    const timeoutMs = req.timeoutMs === undefined ? this.defaultTimeoutMs : effectiveTimeout(req.timeoutMs);
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new OutboundError('timeout', `${url.host} did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onCallerAbort = () => controller.abort(new OutboundError('aborted', `the call to ${url.host} was aborted`));
    if (req.signal?.aborted) onCallerAbort();
    req.signal?.addEventListener('abort', onCallerAbort, { once: true });
    try {
      let res: Awaited<ReturnType<typeof request>>;
      try {
        res = await request(url, {
          dispatcher: this.agent,
          method: req.method ?? 'POST',
          headers: this.tracing.enabled ? this.tracing.inject({ ...req.headers }) : req.headers,
          body: req.body,
          signal: controller.signal,
        });
      } catch (err) {
        throw transportFailure(err, url, controller.signal);
      }
      if (res.statusCode >= 300 && res.statusCode < 400) {
        discard(res.body);
        throw new OutboundError(
          'redirect',
          `${url.host} answered with a redirect (HTTP ${res.statusCode}); redirects are not followed`,
          res.statusCode,
        );
      }
      const limit = req.maxResponseBytes ?? MAX_RESPONSE_BYTES;
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > limit) {
        discard(res.body);
        throw tooLarge(url, limit);
      }
      if (req.readBody === false) {
        discard(res.body);
        return { status: res.statusCode, headers: res.headers, body: Buffer.alloc(0) };
      }
      const chunks: Buffer[] = [];
      let total = 0;
      try {
        for await (const chunk of res.body) {
          total += (chunk as Buffer).length;
          if (total > limit) {
            discard(res.body);
            throw tooLarge(url, limit);
          }
          chunks.push(chunk as Buffer);
          if (req.onBodyChunk?.(chunk as Buffer) === false) {
            discard(res.body);
            break;
          }
        }
      } catch (err) {
        if (err instanceof OutboundError) throw err;
        throw transportFailure(err, url, controller.signal);
      }
      return { status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks, total) };
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onCallerAbort);
    }
  }
}

/** The timeout a call gets: what it asked for, but never more than 30 s (unset or nonsense → 30 s). */
export function effectiveTimeout(ms: number | undefined): number {
  if (ms === undefined || !Number.isFinite(ms) || ms <= 0) return MAX_OUTBOUND_TIMEOUT_MS;
  return Math.min(ms, MAX_OUTBOUND_TIMEOUT_MS);
}

function parseDestination(dest: ConfiguredDestination): URL {
  let url: URL;
  try {
    url = new URL(dest.url);
  } catch {
    throw new OutboundError('invalid_destination', `${dest.setting} is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError('invalid_destination', `${dest.setting} must be an http or https URL`);
  }
  if (url.username || url.password) {
    throw new OutboundError('invalid_destination', `${dest.setting} must not contain credentials`);
  }
  return url;
}

/** Drops a body without reading it; destroying emits an abort error nobody else listens for. */
function discard(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on('error', () => undefined);
  body.destroy();
}

function tooLarge(url: URL, limit: number): OutboundError {
  const size = limit % (1024 * 1024) === 0 ? `${limit / (1024 * 1024)} MiB` : `${limit} bytes`;
  return new OutboundError('too_large', `the response from ${url.host} exceeds the ${size} limit`);
}

function transportFailure(err: unknown, url: URL, signal: AbortSignal): OutboundError {
  if (signal.aborted && signal.reason instanceof OutboundError) return signal.reason;
  if (err instanceof OutboundError) return err;
  const refusal = findRefusal(err);
  if (refusal) return new OutboundError('refused_address', refusal.message);
  const code = socketErrorCode(err);
  return new OutboundError('network', `request to ${url.host} failed${code ? ` (${code})` : ''}`, undefined, code);
}
