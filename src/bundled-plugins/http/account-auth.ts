import { findBySecret, secretIndexPerSource } from '../../common/secrets/secret-match';
import type { HttpAccount, HttpSection } from './http-section';

/** Token digests per accounts object (snapshots are immutable, so they live exactly as long as it). */
const accountIndex = secretIndexPerSource((accounts: HttpSection['accounts']) =>
  // Unusable accounts (their ${VAR} is unset) have no credential and can never authenticate.
  Object.values(accounts)
    .filter((account) => account.usable)
    .map((account) => ({ secret: account.token, value: account })),
);

/** The account whose token equals `presented`, or undefined; found by digest, timing-safe (see findBySecret). */
export function authenticateAccount(accounts: HttpSection['accounts'], presented: string | undefined): HttpAccount | undefined {
  return findBySecret(presented, accountIndex(accounts));
}
