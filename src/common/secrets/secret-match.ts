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

/** Candidates whose secrets are already digested: build it once per config snapshot, not per request. */
export type SecretIndex<T> = ReadonlyArray<{ readonly digest: Buffer; readonly value: T }>;

/** SHA-256 of a secret: fixed-length input for timingSafeEqual, whatever the lengths of the two secrets. */
export function secretDigest(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** Digests the usable candidates, in order. Unset secrets (their ${VAR} is unset) are left out. */
export function secretIndex<T>(candidates: Iterable<SecretCandidate<T>>): SecretIndex<T> {
  const index: Array<{ digest: Buffer; value: T }> = [];
  for (const { secret, value } of candidates) {
    if (typeof secret === 'string' && secret.length > 0) index.push({ digest: secretDigest(secret), value });
  }
  return index;
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
 * The value of the first candidate whose secret equals `presented`, or undefined. Both sides are SHA-256'd
 * so timingSafeEqual always compares 32 bytes (a length check would leak the secret's length), and every
 * candidate is compared without stopping at a match, so the time taken says nothing about which candidate
 * (or whether any) matched.
 */
export function findBySecret<T>(presented: string | undefined, index: SecretIndex<T>): T | undefined {
  if (!presented) return undefined;
  const digest = secretDigest(presented);
  let matched = false;
  let found: T | undefined;
  for (const entry of index) {
    // Always compare first: `matched` must not short-circuit the comparison.
    if (timingSafeEqual(entry.digest, digest) && !matched) {
      matched = true;
      found = entry.value;
    }
  }
  return found;
}
