import type { IncomingHttpHeaders } from 'node:http';
import { isIP, isIPv4 } from 'node:net';
import { isTrustedAddress } from '../../common/net/trusted-proxies';
import type { GatewaySettings } from '../config';

/** The parts of a request that say where it came from (an express Request is one). */
export interface PeerRequest {
  readonly socket?: { readonly remoteAddress?: string };
  readonly headers: IncomingHttpHeaders;
}

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped form. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return (isIPv4(v4) && v4.startsWith('127.')) || address === '::1';
}

/** The TCP peer of the request. Never a header: headers are whatever the client chose to send. */
export function peerAddress(req: PeerRequest): string | undefined {
  return req.socket?.remoteAddress ?? undefined;
}

/**
 * The client's address for the audit log: the TCP peer, or — when the peer is a trusted proxy — the
 * right-most `X-Forwarded-For` entry that is not itself a trusted proxy (entries further left were
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

/**
 * The proxies whose forwarded headers the admin API believes: `gateway.admin.sso.trustedProxies` and
 * `gateway.trustedProxies`, as one array per settings object — trusted-proxy BlockLists are compiled once per array,
 * so a fresh concatenation per request would compile a new one for every request.
 */
const forwardingProxyLists = new WeakMap<GatewaySettings, readonly string[]>();
export function forwardingProxies(gateway: GatewaySettings): readonly string[] {
  let list = forwardingProxyLists.get(gateway);
  if (!list) forwardingProxyLists.set(gateway, (list = [...gateway.admin.sso.trustedProxies, ...gateway.trustedProxies]));
  return list;
}
