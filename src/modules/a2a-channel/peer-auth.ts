import { createHash, timingSafeEqual } from 'node:crypto';
import type { A2aChannelSettings } from '../config/config.types';

type Peers = A2aChannelSettings['peers'];

/** Token digests per peers object: snapshots are immutable, so the digests live exactly as long as their snapshot. */
const digestsByPeers = new WeakMap<Peers, ReadonlyArray<{ name: string; digest: Buffer }>>();

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

function peerDigests(peers: Peers): ReadonlyArray<{ name: string; digest: Buffer }> {
  let digests = digestsByPeers.get(peers);
  if (!digests) {
    // A peer whose ${VAR} is unset has no credential and can never authenticate.
    digests = Object.values(peers)
      .filter((p) => p.usable && !!p.token)
      .map((p) => ({ name: p.name, digest: sha256(p.token as string) }));
    digestsByPeers.set(peers, digests);
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
 * The name of the peer whose token equals `presented`, or undefined (SPEC §9.2). Both sides are SHA-256'd so
 * timingSafeEqual always compares 32 bytes (the token length never shows in the timing), and every usable
 * peer is compared — no early exit — so the timing does not tell which peer, or whether any, matched.
 * The matched peer is the caller's identity; nothing in the request body can change it.
 */
export function authenticatePeer(peers: Peers, presented: string | undefined): string | undefined {
  if (!presented) return undefined;
  const digest = sha256(presented);
  let found: string | undefined;
  for (const entry of peerDigests(peers)) {
    if (timingSafeEqual(entry.digest, digest) && found === undefined) found = entry.name;
  }
  return found;
}
