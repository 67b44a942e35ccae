import { createHash, timingSafeEqual } from 'node:crypto';
import type { GatewaySettings } from '../config/config.types';
import type { AdminRole } from '../config/schema/gateway.schema';

type TokenEntry = GatewaySettings['admin']['tokens'][number];

const digest = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest();

/** Digests per tokens array: a snapshot's arrays never change, so the digests live exactly as long. */
const digestsByList = new WeakMap<readonly TokenEntry[], Array<{ name: string; role: AdminRole; digest: Buffer }>>();

function tokenDigests(tokens: readonly TokenEntry[]): Array<{ name: string; role: AdminRole; digest: Buffer }> {
  let list = digestsByList.get(tokens);
  if (!list) {
    // An entry whose ${VAR} is unset has no token (the loader dropped it): it can never match.
    list = tokens
      .filter((t) => typeof t.token === 'string' && t.token.length > 0)
      .map((t) => ({ name: t.name, role: t.role, digest: digest(t.token) }));
    digestsByList.set(tokens, list);
  }
  return list;
}

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), or undefined. */
export function bearerCredential(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header.trim());
  return match ? match[1] : undefined;
}

/**
 * The configured admin token equal to `presented`, or undefined. Both sides are SHA-256'd so
 * timingSafeEqual always compares 32 bytes (the token's length does not leak), and every entry is compared
 * without stopping at a match, so the time taken says nothing about which entry (or whether any) matched.
 */
export function matchAdminToken(tokens: readonly TokenEntry[], presented: string | undefined): { name: string; role: AdminRole } | undefined {
  if (!presented) return undefined;
  const candidate = digest(presented);
  let found: { name: string; role: AdminRole } | undefined;
  for (const entry of tokenDigests(tokens)) {
    const equal = timingSafeEqual(entry.digest, candidate);
    if (equal && !found) found = { name: entry.name, role: entry.role };
  }
  return found;
}
