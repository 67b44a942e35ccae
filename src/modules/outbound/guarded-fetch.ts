import { type Agent, fetch as undiciFetch } from 'undici';
import { findRefusal, OutboundError, socketErrorCode } from './outbound-error';

/** Where the requests go and the setting it came from (GuardedTransport's ConfiguredDestination). */
interface Destination {
  url: string;
  setting: string;
}

/** GuardedTransport's audit line. */
type Audit = (entry: { kind: string; host: string; status: number | string; durationMs: number }) => void;

/** The `fetch` shape HTTP client libraries take (the MCP SDK's `FetchLike`), and `close` for its connection pool. */
export type GuardedFetch = ((url: string | URL, init?: RequestInit) => Promise<Response>) & {
  /** Ends the pool and its connections (open streams included); the fetch is not used after. */
  close(): Promise<void>;
};

/**
 * A `fetch` for a client library that speaks its own protocol over HTTP (the MCP SDK's Streamable HTTP and SSE
 * transports) under the transport guard's rules that fit a long-lived stream: every request dials through the
 * guarded connector (a name resolving to a non-public address is refused; a literal IP or `localhost` is the
 * operator's explicit choice), stays on the configured origin, follows no redirect, and is audited. The 30 s and
 * 16 MiB caps of `GuardedTransport.request` do not apply: a GET event stream lives as long as the session, and the
 * library bounds its own requests (the MCP client's `requestTimeoutMs`, `maxOutputBytes`).
 */
export function guardedFetch(agent: Agent, kind: string, destination: Destination, configured: URL, audit: Audit): GuardedFetch {
  const fetch = async (target: string | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(target);
    if (url.origin !== configured.origin) {
      throw new OutboundError(
        'invalid_destination',
        `${destination.setting}: a request to ${url.host} left the configured origin ${configured.host}`,
      );
    }
    const started = performance.now();
    let status: number | string = 'error';
    try {
      let response: Response;
      try {
        // undici's own fetch, so the dispatcher (and its guarded connector) is the transport's.
        response = await undiciFetch(url, {
          ...(init as Parameters<typeof undiciFetch>[1]),
          dispatcher: agent,
          redirect: 'manual',
        });
      } catch (err) {
        throw fetchFailure(err, url, destination, init?.signal ?? undefined);
      }
      status = response.status;
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel().catch(() => undefined);
        status = `redirect (HTTP ${response.status})`;
        throw new OutboundError(
          'redirect',
          `${destination.setting}: ${url.host} answered with a redirect (HTTP ${response.status}); redirects are not followed`,
          response.status,
        );
      }
      return response;
    } catch (err) {
      if (err instanceof OutboundError && status === 'error') status = err.failure;
      throw err;
    } finally {
      audit({ kind, host: url.host, status, durationMs: Math.round(performance.now() - started) });
    }
  };
  return Object.assign(fetch, { close: () => agent.destroy().catch(() => undefined) });
}

/** A failed fetch as an OutboundError naming the setting: the refusal of the address policy, or the socket's error. */
function fetchFailure(err: unknown, url: URL, destination: Destination, signal: AbortSignal | undefined): unknown {
  // An abort is the library's own (its timeout, a closed session): it knows what it asked for.
  if (signal?.aborted) return err;
  const refusal = findRefusal(err);
  if (refusal) return new OutboundError('refused_address', `${destination.setting}: ${refusal.message}`);
  const code = socketErrorCode(err);
  return new OutboundError('network', `request to ${url.host} failed${code ? ` (${code})` : ''}`, undefined, code);
}
