import { findBySecret, secretIndexPerSource } from '../../common/secrets/secret-match';
import type { GatewaySettings } from '../config';
import type { AdminRole } from '../../common/auth/roles';

type TokenEntry = GatewaySettings['admin']['tokens'][number];

/**
 * Digests per tokens array (a snapshot's arrays never change, so they live exactly as long). An entry whose
 * ${VAR} is unset has no token (the loader dropped it): findBySecret's index leaves it out, it never matches.
 */
const tokenIndex = secretIndexPerSource((tokens: readonly TokenEntry[]) => tokens.map((entry) => ({ secret: entry.token, value: entry })));

/** The configured admin token equal to `presented`, or undefined; found by digest, timing-safe (see findBySecret). */
export function matchAdminToken(
  tokens: readonly TokenEntry[],
  presented: string | undefined,
): { name: string; role: AdminRole } | undefined {
  const entry = findBySecret(presented, tokenIndex(tokens));
  // Name and role only: the token itself never leaves this module.
  return entry && { name: entry.name, role: entry.role };
}
