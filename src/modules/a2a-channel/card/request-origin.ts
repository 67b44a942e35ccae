import { isIP } from 'node:net';
import { isTrustedAddress } from '../../../common/net/trusted-proxies';
import type { NormalizedConfig } from '../../config';

/** What origin derivation reads from a request; an express Request satisfies it. */
export interface OriginRequest {
  headers: Record<string, string | string[] | undefined>;
  socket: { remoteAddress?: string; encrypted?: boolean; localAddress?: string; localPort?: number };
}

/** host, host:port, [v6] or [v6]:port — anything else in Host is not put into a published URL. */
const HOST_HEADER =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

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
  if (isTrustedAddress(req.socket.remoteAddress, trustedProxies)) {
    const forwarded = firstHeader(req.headers['x-forwarded-proto'])?.toLowerCase();
    if (forwarded === 'http' || forwarded === 'https') scheme = forwarded;
  }
  const host = firstHeader(req.headers.host);
  if (host && HOST_HEADER.test(host)) return `${scheme}://${host}`;
  const local = req.socket.localAddress ?? '127.0.0.1';
  const localHost = isIP(local) === 6 ? `[${local}]` : local;
  return `${scheme}://${localHost}${req.socket.localPort ? `:${req.socket.localPort}` : ''}`;
}

/**
 * The origin the Agent Cards publish (the public one and the extended one alike): `channels.a2a.advertisedUrl`,
 * else `gateway.publicUrl`, else the request's own origin.
 */
export function cardOrigin(config: NormalizedConfig, req: OriginRequest): string {
  return (
    config.channels.a2a.advertisedUrl ?? config.gateway.publicUrl?.replace(/\/+$/, '') ?? requestOrigin(req, config.gateway.trustedProxies)
  );
}
