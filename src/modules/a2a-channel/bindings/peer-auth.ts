import { findBySecret, secretIndexPerSource } from '../../../common/secrets/secret-match';
import type { A2aChannelSettings } from '../../config';

type Peers = A2aChannelSettings['peers'];

/** The `WWW-Authenticate` challenge of a refused A2A request (both bindings). */
export const PEER_AUTH_CHALLENGE = 'Bearer realm="clawgate a2a"';

/** Token digests per peers object (snapshots are immutable, so they live exactly as long as their snapshot). */
const peerIndex = secretIndexPerSource((peers: Peers) =>
  // A peer whose ${VAR} is unset has no credential and can never authenticate.
  Object.values(peers)
    .filter((peer) => peer.usable)
    .map((peer) => ({ secret: peer.token, value: peer.name })),
);

/**
 * The name of the peer whose token equals `presented`, or undefined: found by the token's digest, one
 * lookup however many peers are configured, timing-safe (see findBySecret). The matched peer is the caller's identity; nothing in the
 * request body can change it. See docs/a2a.md#peers-and-tokens.
 */
export function authenticatePeer(peers: Peers, presented: string | undefined): string | undefined {
  return findBySecret(presented, peerIndex(peers));
}
