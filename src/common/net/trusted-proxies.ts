import { BlockList, isIPv4 } from 'node:net';
import { parseCidr } from './cidr';

/** Compiled lists per CIDR array: config arrays are immutable within a snapshot, so they live exactly as long. */
const lists = new WeakMap<readonly string[], BlockList>();

/**
 * A node:net BlockList of `10.0.0.0/8`, `fd00::/8` or bare addresses (a /32 or /128). Entries were
 * validated by the config schema; parsed again here, anything unparsable is skipped.
 */
export function trustedProxyList(cidrs: readonly string[]): BlockList {
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
 * True when `address` (a TCP peer, or a forwarded hop) lies inside one of `cidrs`. BlockList itself matches
 * IPv4-mapped IPv6 addresses (`::ffff:10.0.0.1`, what a dual-stack listener reports) against IPv4 rules and
 * the reverse, so no prefix stripping is needed here. Anything that is not an IP literal is never trusted.
 */
export function isTrustedAddress(address: string | undefined, cidrs: readonly string[]): boolean {
  if (!address || !cidrs.length) return false;
  const family = isIPv4(address) ? 'ipv4' : 'ipv6';
  try {
    return trustedProxyList(cidrs).check(address, family);
  } catch {
    return false; // not an IP literal at all
  }
}
