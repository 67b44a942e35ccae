import { isIPv4 } from 'node:net';
import type { GatewaySettings } from '../config';

// Where a request came from is shared with the channels' refusal warnings; the admin module's names stay.
export { clientAddress, peerAddress, type PeerRequest } from '../../common/net/client-address';

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped form. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return (isIPv4(v4) && v4.startsWith('127.')) || address === '::1';
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
