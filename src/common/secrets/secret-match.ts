import * as crypto from 'node:crypto';
import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Matching a presented secret (a bearer token) against configured ones without the timing telling an
 * attacker anything. Used by the http channel accounts, the A2A peers and the admin tokens.
 */

/** One configured secret and what a match on it identifies. An unset or empty secret never matches. */
export interface SecretCandidate<T> {
  secret: string | undefined;
  value: T;
}

/**
 * Candidates whose secrets are already digested, in order, and the first value per digest: build it once per
 * config snapshot, not per request.
 */
export type SecretIndex<T> = ReadonlyArray<{ readonly digest: Buffer; readonly value: T }> & {
  readonly byDigest: ReadonlyMap<string, { readonly digest: Buffer; readonly value: T }>;
};

/** Node's one-shot digest (20.12 and later): no Hash object per request. */
const oneShotHash = typeof crypto.hash === 'function' ? crypto.hash : undefined;

/** SHA-256 of a secret: fixed-length input for timingSafeEqual, whatever the lengths of the two secrets. */
export function secretDigest(secret: string): Buffer {
  return oneShotHash ? oneShotHash('sha256', secret, 'buffer') : createHash('sha256').update(secret, 'utf8').digest();
}

/** Digests the usable candidates, in order. Unset secrets (their ${VAR} is unset) are left out. */
export function secretIndex<T>(candidates: Iterable<SecretCandidate<T>>): SecretIndex<T> {
  const index: Array<{ digest: Buffer; value: T }> = [];
  const byDigest = new Map<string, { digest: Buffer; value: T }>();
  for (const { secret, value } of candidates) {
    if (typeof secret !== 'string' || secret.length === 0) continue;
    const entry = { digest: secretDigest(secret), value };
    index.push(entry);
    // Two candidates sharing a secret: the first one wins, as it always has.
    const key = entry.digest.toString('base64');
    if (!byDigest.has(key)) byDigest.set(key, entry);
  }
  return Object.assign(index, { byDigest });
}

/**
 * `secretIndex` memoized per source object. Config snapshots are immutable, so an index lives exactly as
 * long as the object it was built from and a reload (new object) is never answered from a stale index.
 */
export function secretIndexPerSource<S extends object, T>(
  candidatesOf: (source: S) => Iterable<SecretCandidate<T>>,
): (source: S) => SecretIndex<T> {
  const cache = new WeakMap<S, SecretIndex<T>>();
  return (source) => {
    let index = cache.get(source);
    if (!index) {
      index = secretIndex(candidatesOf(source));
      cache.set(source, index);
    }
    return index;
  };
}

/**
 * The value of the first candidate whose secret equals `presented`, or undefined: one SHA-256 and one lookup,
 * whatever the number of candidates (a gateway with 200 peers paid 200 comparisons per request). The lookup is
 * keyed by the digest of what was presented, so its timing can depend only on that digest — which an attacker
 * controls only through SHA-256 and which says nothing about a configured secret — never on the secrets' bytes or
 * lengths. The match is confirmed with a timing-safe comparison of the two 32-byte digests.
 */
export function findBySecret<T>(presented: string | undefined, index: SecretIndex<T>): T | undefined {
  if (!presented) return undefined;
  const digest = secretDigest(presented);
  const found = index.byDigest.get(digest.toString('base64'));
  return found && timingSafeEqual(found.digest, digest) ? found.value : undefined;
}
