import { BlockList, isIP } from 'node:net';

/**
 * Which addresses an outbound call may dial when the configured URL names a host by DNS name
 * (docs/outbound.md#4-the-transport-guard).
 *
 * A name that resolves into a loopback/private/link-local/... range is how SSRF reaches internal services
 * (a peer's DNS pointed at 127.0.0.1, a cloud metadata address, an intranet host). So such addresses are
 * refused unless the operator wrote the host literally — an IP literal or `localhost` — in which case the
 * intent to reach a local/internal service is explicit and nothing was "resolved" behind their back.
 */

interface Range {
  network: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
  label: string;
}

const RANGES: Range[] = [
  { network: '0.0.0.0', prefix: 8, family: 'ipv4', label: 'unspecified' },
  { network: '10.0.0.0', prefix: 8, family: 'ipv4', label: 'private' },
  { network: '100.64.0.0', prefix: 10, family: 'ipv4', label: 'shared (CGNAT)' },
  { network: '127.0.0.0', prefix: 8, family: 'ipv4', label: 'loopback' },
  { network: '169.254.0.0', prefix: 16, family: 'ipv4', label: 'link-local' },
  { network: '172.16.0.0', prefix: 12, family: 'ipv4', label: 'private' },
  { network: '192.0.0.0', prefix: 24, family: 'ipv4', label: 'reserved' },
  { network: '192.168.0.0', prefix: 16, family: 'ipv4', label: 'private' },
  { network: '198.18.0.0', prefix: 15, family: 'ipv4', label: 'reserved' },
  { network: '224.0.0.0', prefix: 4, family: 'ipv4', label: 'multicast' },
  // 240/4 includes the broadcast address 255.255.255.255.
  { network: '240.0.0.0', prefix: 4, family: 'ipv4', label: 'reserved' },
  { network: '::', prefix: 128, family: 'ipv6', label: 'unspecified' },
  { network: '::1', prefix: 128, family: 'ipv6', label: 'loopback' },
  { network: 'fc00::', prefix: 7, family: 'ipv6', label: 'unique-local' },
  { network: 'fe80::', prefix: 10, family: 'ipv6', label: 'link-local' },
  { network: 'fec0::', prefix: 10, family: 'ipv6', label: 'site-local' },
  { network: 'ff00::', prefix: 8, family: 'ipv6', label: 'multicast' },
];

const LISTS = RANGES.map((r) => {
  const list = new BlockList();
  list.addSubnet(r.network, r.prefix, r.family);
  return { list, family: r.family, label: r.label };
});

/**
 * IPv6 forms that carry an IPv4 address: IPv4-mapped (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`,
 * deprecated but still routable on some stacks) and the NAT64 well-known prefix (`64:ff9b::/96`). Matched on
 * the WHATWG-canonical spelling, which writes the embedded address as two hex groups.
 */
const EMBEDDED_V4 = [
  /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/,
  /^::([0-9a-f]{1,4}):([0-9a-f]{1,4})$/,
  /^64:ff9b::([0-9a-f]{1,4}):([0-9a-f]{1,4})$/,
];

/** The category of a non-public address (`loopback`, `private`, ...), or undefined for a public one. */
export function nonPublicCategory(address: string): string | undefined {
  const bare = address.replace(/%.*$/, ''); // a zone id (fe80::1%eth0) does not change the category
  const family = isIP(bare);
  if (family === 4) return classify(bare, 'ipv4');
  if (family !== 6) return 'not an IP address';
  const canonical = canonicalV6(bare);
  for (const pattern of EMBEDDED_V4) {
    const m = pattern.exec(canonical);
    if (m) {
      const hi = parseInt(m[1], 16);
      const lo = parseInt(m[2], 16);
      const v4 = `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
      return classify(v4, 'ipv4') ?? (pattern === EMBEDDED_V4[1] ? 'IPv4-compatible' : undefined);
    }
  }
  return classify(canonical, 'ipv6');
}

/**
 * True when the host as written in the URL is itself an address or `localhost`: the operator named the
 * destination exactly, so no resolution can move it somewhere unexpected.
 */
export function isLiteralHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return isIP(host) !== 0 || host === 'localhost';
}

function classify(address: string, family: 'ipv4' | 'ipv6'): string | undefined {
  return LISTS.find((l) => l.family === family && l.list.check(address, family))?.label;
}

function canonicalV6(address: string): string {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address.toLowerCase();
  }
}
