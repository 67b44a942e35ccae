import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import { isTrustedAddress } from './trusted-proxies';

/** The parts of a request that say where it came from (an express Request and a node:http one are both). */
export interface PeerRequest {
  readonly socket?: { readonly remoteAddress?: string };
  readonly headers: IncomingHttpHeaders;
}

/** The TCP peer of the request. Never a header: headers are whatever the client chose to send. */
export function peerAddress(req: PeerRequest): string | undefined {
  return req.socket?.remoteAddress ?? undefined;
}

/**
 * The client's address for the audit log and refusal warnings: the TCP peer, or — when the peer is a trusted
 * proxy — the right-most `X-Forwarded-For` entry that is not itself a trusted proxy (entries further left were
 * written by the client and prove nothing).
 */
export function clientAddress(req: PeerRequest, trusted: readonly string[]): string | undefined {
  const peer = peerAddress(req);
  if (!isTrustedAddress(peer, trusted)) return peer;
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!isIP(hops[i])) break; // garbage (or "unknown"): keep the last address we can vouch for
    client = hops[i];
    if (!isTrustedAddress(client, trusted)) break;
  }
  return client;
}
