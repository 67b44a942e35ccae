import { timingSafeEqual } from 'node:crypto';
import type { HttpChannelSettings } from '../../config/config.types';
import { secretDigest } from './webhook-signature';

export type HttpAccount = HttpChannelSettings['accounts'][string];

/** Token digests per accounts object: snapshots are immutable, so the digests live exactly as long as it. */
const digestsByAccounts = new WeakMap<HttpChannelSettings['accounts'], Array<{ account: HttpAccount; digest: Buffer }>>();

function accountDigests(accounts: HttpChannelSettings['accounts']): Array<{ account: HttpAccount; digest: Buffer }> {
  let digests = digestsByAccounts.get(accounts);
  if (!digests) {
    // Unusable accounts (their ${VAR} is unset) have no credential and can never authenticate.
    digests = Object.values(accounts)
      .filter((a) => a.usable && !!a.token)
      .map((account) => ({ account, digest: secretDigest(account.token as string) }));
    digestsByAccounts.set(accounts, digests);
  }
  return digests;
}

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), or undefined. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer[ \t]+(\S.*)$/i.exec(header.trim());
  return match ? match[1].trim() : undefined;
}

/**
 * The account whose token equals `presented`, or undefined. Both sides are SHA-256'd so timingSafeEqual
 * compares equal lengths (a length check would leak the token's length), and every account is compared
 * without stopping at a match, so the timing does not tell which account (or whether any) matched.
 */
export function authenticateAccount(accounts: HttpChannelSettings['accounts'], presented: string | undefined): HttpAccount | undefined {
  if (!presented) return undefined;
  const digest = secretDigest(presented);
  let found: HttpAccount | undefined;
  for (const entry of accountDigests(accounts)) {
    if (timingSafeEqual(entry.digest, digest) && !found) found = entry.account;
  }
  return found;
}
