import type { JWK } from 'jose';

/**
 * Where the push signing key lives when replicas share the task store (docs/decisions.md#state-on-postgresql): one
 * key for all of them, so every replica signs with it and publishes the same JWKS. The first replica to need a key
 * offers one; whoever comes second gets the stored one back. Holds the private key: nothing read here is ever logged
 * or answered.
 */
export interface PushKeyStore {
  /** The stored private JWK, or undefined while none is stored. */
  stored(): Promise<JWK | undefined>;
  /** Stores `candidate` unless a key is stored already; resolves with the key that is stored now (maybe another's). */
  keepFirst(candidate: JWK, origin: PushKeyOrigin): Promise<JWK>;
}

/** Why a key was offered: made now, or taken from a replica's key file (receivers may have pinned it). */
export type PushKeyOrigin = 'generated' | 'imported';

/** A private P-256 key as a JWK (the shape ES256 signing needs), checked without ever quoting it. */
export function isPrivateEcJwk(jwk: unknown): jwk is JWK {
  const k = jwk as Partial<JWK> | null | undefined;
  return (
    typeof k === 'object' &&
    k !== null &&
    k.kty === 'EC' &&
    k.crv === 'P-256' &&
    typeof k.x === 'string' &&
    typeof k.y === 'string' &&
    typeof k.d === 'string'
  );
}
