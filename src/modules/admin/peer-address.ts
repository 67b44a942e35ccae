import { BlockList, isIP, isIPv4 } from 'node:net';
import type { Request } from 'express';
import { parseCidr } from '../config/schema/schema-decorators';

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped form. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return (isIPv4(v4) && v4.startsWith('127.')) || address === '::1';
}

/** BlockLists per CIDR list: config arrays are immutable within a snapshot, so they live exactly as long. */
const lists = new WeakMap<readonly string[], BlockList>();

/** A node:net BlockList of the given addresses/CIDR blocks (entries the schema let through, parsed again). */
export function cidrBlockList(cidrs: readonly string[]): BlockList {
  let list = lists.get(cidrs);
  if (!list) {
    list = new BlockList();
    for (const text of cidrs) {
      const cidr = parseCidr(text);
      if (cidr) list.addSubnet(cidr.address, cidr.prefix, cidr.family);
    }
    lists.set(cidrs, list);
  }
  return list;
}

/**
 * True when `address` is inside one of `cidrs`. BlockList matches IPv4-mapped IPv6 addresses
 * (`::ffff:10.0.0.1`, what a dual-stack listener reports) against IPv4 rules and the reverse.
 */
export function addressInside(address: string | undefined, cidrs: readonly string[]): boolean {
  if (!address || !cidrs.length) return false;
  const family = isIPv4(address) ? 'ipv4' : 'ipv6';
  try {
    return cidrBlockList(cidrs).check(address, family);
  } catch {
    return false; // not an IP literal at all
  }
}

/** The TCP peer of the request. Never a header: headers are whatever the client chose to send. */
export function peerAddress(req: Request): string | undefined {
  return req.socket?.remoteAddress ?? undefined;
}

/**
 * The client's address for the audit log: the TCP peer, or — when the peer is a trusted proxy — the
 * right-most `X-Forwarded-For` entry that is not itself a trusted proxy (entries further left were
 * written by the client and prove nothing).
 */
export function clientAddress(req: Request, trusted: readonly string[]): string | undefined {
  const peer = peerAddress(req);
  if (!addressInside(peer, trusted)) return peer;
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : header ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!isIP(hops[i])) break; // garbage (or "unknown"): keep the last address we can vouch for
    client = hops[i];
    if (!addressInside(client, trusted)) break;
  }
  return client;
}
