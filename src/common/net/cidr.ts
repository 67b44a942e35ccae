import { isIP } from 'node:net';

/** Parses `addr` or `addr/prefix`; returns null when invalid. A bare address is a /32 (IPv4) or /128 (IPv6). */
export function parseCidr(value: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [address, prefixText, extra] = value.trim().split('/');
  if (extra !== undefined) return null;
  const version = isIP(address);
  if (version === 0) return null;
  const max = version === 4 ? 32 : 128;
  if (prefixText === undefined) return { address, prefix: max, family: version === 4 ? 'ipv4' : 'ipv6' };
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  if (prefix > max) return null;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}
