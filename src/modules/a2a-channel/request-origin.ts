import { BlockList, isIP } from 'node:net';
import { parseCidr } from '../config/schema/schema-decorators';

/** What origin derivation reads from a request; an express Request satisfies it. */
export interface OriginRequest {
  headers: Record<string, string | string[] | undefined>;
  socket: { remoteAddress?: string; encrypted?: boolean; localAddress?: string; localPort?: number };
}

/** Compiled trustedProxies per config array (snapshots are immutable). */
const blockLists = new WeakMap<readonly string[], BlockList>();

/** `10.0.0.0/8`, `fd00::/8` or a bare address (a /32 or /128). Entries are validated by the config schema. */
export function trustedProxyList(cidrs: readonly string[]): BlockList {
  let list = blockLists.get(cidrs);
  if (!list) {
    list = new BlockList();
    for (const raw of cidrs) {
      const cidr = parseCidr(raw);
      if (cidr) list.addSubnet(cidr.address, cidr.prefix, cidr.family);
    }
    blockLists.set(cidrs, list);
  }
  return list;
}

/** True when the TCP peer address lies inside one of `cidrs` (IPv4-mapped IPv6 addresses count as IPv4). */
export function isTrustedProxy(remoteAddress: string | undefined, cidrs: readonly string[]): boolean {
  if (!remoteAddress || !cidrs.length) return false;
  const list = trustedProxyList(cidrs);
  const mapped = remoteAddress.toLowerCase().startsWith('::ffff:') ? remoteAddress.slice(7) : remoteAddress;
  const family = isIP(mapped);
  if (!family) return false;
  return list.check(mapped, family === 6 ? 'ipv6' : 'ipv4');
}

/** host, host:port, [v6] or [v6]:port — anything else in Host is not put into a published URL. */
const HOST_HEADER = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

function firstHeader(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v?.split(',')[0]?.trim() || undefined;
}

/**
 * The origin a peer used to reach us: `Host` plus the scheme of the connection. `X-Forwarded-Proto` is
 * believed only from a TCP peer inside `trustedProxies` — from anyone else it could make the card advertise
 * a downgraded or wrong endpoint. A missing or malformed Host falls back to the local socket address.
 */
export function requestOrigin(req: OriginRequest, trustedProxies: readonly string[]): string {
  let scheme = req.socket.encrypted ? 'https' : 'http';
  if (isTrustedProxy(req.socket.remoteAddress, trustedProxies)) {
    const forwarded = firstHeader(req.headers['x-forwarded-proto'])?.toLowerCase();
    if (forwarded === 'http' || forwarded === 'https') scheme = forwarded;
  }
  const host = firstHeader(req.headers.host);
  if (host && HOST_HEADER.test(host)) return `${scheme}://${host}`;
  const local = req.socket.localAddress ?? '127.0.0.1';
  const localHost = isIP(local) === 6 ? `[${local}]` : local;
  return `${scheme}://${localHost}${req.socket.localPort ? `:${req.socket.localPort}` : ''}`;
}
