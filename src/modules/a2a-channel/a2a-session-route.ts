import type { RuntimeSnapshot } from '../config';
import type { InboundMessage } from '../routing';
import { directSessionKey } from '../sessions';
import { A2A_ACCOUNT_ID, A2A_CHANNEL_ID } from './a2a-limits';
import { exposedAgents } from './agent-card';

/** What routes an inbound message (RoutingService.resolve satisfies it). */
export type RouteLookup = (inbound: InboundMessage) => { agentId: string; matchedBy: { tier: string } };

export type A2aRoute = { agentId: string; sessionKey: string } | { refused: true };

/**
 * The agent and session of a (peer, contextId) conversation (docs/a2a.md#session-isolation).
 *
 * - Routed as channel `a2a`, account `default`, direct peer `<peer>:<contextId>`. Peer names cannot contain
 *   `:`, so one peer can never produce another peer's peer id.
 * - Binding precedence: a binding for the exact `<peer>:<contextId>` wins; else a peer binding for the bare
 *   `<peer>` (a stable per-peer route); else the account/channel/default tiers of the first lookup.
 * - The session key is built with dmScope fixed to `per-account-channel-peer`, never `session.dmScope`: a
 *   peer never lands in the operator's main session or in another peer's conversation.
 * - Only exposed agents are reachable: the card is the A2A boundary, so when routing picks an agent that
 *   `exposeAgents` does not list (typically the default agent), the first exposed agent answers instead;
 *   when no exposed agent is configured, the task is refused.
 */
export function routeA2aConversation(snapshot: RuntimeSnapshot, lookup: RouteLookup, peer: string, contextId: string): A2aRoute {
  const peerId = `${peer}:${contextId}`;
  const inbound = (id: string): InboundMessage => ({ channel: A2A_CHANNEL_ID, accountId: A2A_ACCOUNT_ID, peer: { kind: 'direct', id } });
  let { agentId, matchedBy } = lookup(inbound(peerId));
  if (matchedBy.tier !== 'peer') {
    const stable = lookup(inbound(peer));
    if (stable.matchedBy.tier === 'peer') ({ agentId, matchedBy } = stable);
  }
  const exposed = exposedAgents(snapshot.config);
  if (!exposed.some((a) => a.id === agentId)) {
    if (!exposed.length) return { refused: true };
    agentId = exposed[0].id;
  }
  const sessionKey = directSessionKey({
    agentId,
    dmScope: 'per-account-channel-peer',
    mainKey: snapshot.config.session.mainKey,
    channel: A2A_CHANNEL_ID,
    accountId: A2A_ACCOUNT_ID,
    peerId,
  });
  return { agentId, sessionKey };
}
