import { BUILT_IN_TOOLS } from '../../common/built-in-tools';
import type { ResolvedAgent, RuntimeSnapshot } from '../config';
import { isToolAllowed } from '../runtime';
import { A2aOutboundError, type A2aOutboundReason } from './a2a-outbound-error';
import type { PeerEndpoint } from './peer-rpc';

/**
 * The peer an outbound call may go to, read from one config snapshot (so every call sees the current
 * peers, urls and outboundTokens: hot reload needs nothing else). Every refusal here happens before any I/O.
 */
export function resolveOutboundPeer(snapshot: RuntimeSnapshot, rawName: string): PeerEndpoint {
  const a2a = snapshot.config.channels.a2a;
  const name = outboundPeerName(rawName);
  // An operator who switched the A2A channel off wants no A2A traffic, in either direction.
  if (!a2a.enabled) throw new A2aOutboundError('disabled', 'channels.a2a is not enabled; outbound A2A is off');
  const peer = Object.prototype.hasOwnProperty.call(a2a.peers, name) ? a2a.peers[name] : undefined;
  if (!peer) {
    const reachable = outboundPeerNames(snapshot);
    const known = reachable.length ? `peers with a url: ${reachable.join(', ')}` : 'no peer has a url';
    throw new A2aOutboundError('unknown_peer', `no A2A peer "${name}" is configured (channels.a2a.peers; ${known})`);
  }
  if (!peer.url) throw new A2aOutboundError('no_url', `peer ${name} has no url configured for outbound A2A`);
  if (!peer.usable) {
    throw new A2aOutboundError('unusable', `peer ${name} is unusable: the variable of channels.a2a.peers.${name}.token is not set`);
  }
  if (!peer.outboundToken && declaresOutboundToken(snapshot, name)) {
    // Sending without the credential the operator configured would be a silent downgrade, never the intent.
    throw new A2aOutboundError('unusable', `peer ${name} is unusable: the variable of channels.a2a.peers.${name}.outboundToken is not set`);
  }
  return {
    name,
    url: peer.url,
    outboundToken: peer.outboundToken,
    protocolVersion: peer.protocolVersion,
    secrets: [peer.outboundToken, peer.token].filter((s): s is string => !!s),
  };
}

/** How a peer name given by a caller (tool argument, admin URL) is read: peer names are lowercase. */
export function outboundPeerName(rawName: string): string {
  return rawName.trim().toLowerCase();
}

/** Names of the peers that can receive outbound messages (they have a url). */
export function outboundPeerNames(snapshot: RuntimeSnapshot): string[] {
  return Object.values(snapshot.config.channels.a2a.peers)
    .filter((p) => !!p.url)
    .map((p) => p.name)
    .sort();
}

/** True when openclaw.json sets an outboundToken for the peer (before ${VAR} substitution dropped it). */
function declaresOutboundToken(snapshot: RuntimeSnapshot, name: string): boolean {
  const doc = snapshot.document as { channels?: { a2a?: { peers?: Record<string, { outboundToken?: unknown }> } } };
  const peers = doc?.channels?.a2a?.peers;
  return !!peers && Object.prototype.hasOwnProperty.call(peers, name) && peers[name]?.outboundToken !== undefined;
}

/** A sandboxed agent may not reach other agents of this gateway; a remote one is further still. */
export function sandboxedFromPeers(agent: Pick<ResolvedAgent, 'sandbox'>): boolean {
  return agent.sandbox.mode === 'all';
}

/** Whether an agent's model can send to peers at all: `a2a_send` passes its tools.allow/deny and it is not sandboxed. */
export function agentMaySendToPeers(agent: Pick<ResolvedAgent, 'tools' | 'sandbox'>): boolean {
  return isToolAllowed(agent, BUILT_IN_TOOLS.a2aSend) && !sandboxedFromPeers(agent);
}

/** Why an outbound call to the configured peer `name` would be refused before any I/O; undefined when it would go out. */
export function outboundPeerRefusal(snapshot: RuntimeSnapshot, name: string): A2aOutboundReason | undefined {
  try {
    resolveOutboundPeer(snapshot, name);
    return undefined;
  } catch (err) {
    if (err instanceof A2aOutboundError) return err.reason;
    throw err;
  }
}
