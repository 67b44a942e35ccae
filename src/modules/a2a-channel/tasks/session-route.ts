import { exposedAgents, type ResolvedAgent, type RuntimeSnapshot } from '../../config';
import { namesPeer, type InboundMessage } from '../../routing';
import { directSessionKey } from '../../sessions';
import { A2A_ACCOUNT_ID, A2A_CHANNEL_ID, CONTEXT_ID_PATTERN } from '../protocol/limits-and-messages';

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
  // Most contexts have no binding of their own. Their first lookup would fall through to the tiers below `peer`,
  // which the bare peer's lookup reaches too, and leave a route cache entry per context: it is skipped for them.
  const own = namesPeer(snapshot.config, A2A_CHANNEL_ID, peerId) ? lookup(a2aInbound(peerId)) : undefined;
  const { agentId } = own?.matchedBy.tier === 'peer' ? own : lookup(a2aInbound(peer));
  const answering = exposedAgentFor(snapshot, agentId);
  if (answering === undefined) return { refused: true };
  const sessionKey = directSessionKey({
    agentId: answering,
    dmScope: 'per-account-channel-peer',
    mainKey: snapshot.config.session.mainKey,
    channel: A2A_CHANNEL_ID,
    accountId: A2A_ACCOUNT_ID,
    peerId,
  });
  return { agentId: answering, sessionKey };
}

/**
 * Every agent some conversation of `peer` can reach, in `exposeAgents` order (docs/a2a.md#extended-agent-card):
 * the agent of a context without a binding of its own — the bare-peer binding, else what the channel's other
 * tiers pick (a message without a peer id meets exactly those tiers) — and the agent of each context that has
 * its own `<peer>:<contextId>` binding, each as routeA2aConversation would clamp it to the exposed agents.
 */
export function reachableAgents(snapshot: RuntimeSnapshot, lookup: RouteLookup, peer: string): ResolvedAgent[] {
  const routed = new Set<string>();
  const stable = lookup(a2aInbound(peer));
  routed.add(stable.matchedBy.tier === 'peer' ? stable.agentId : lookup({ channel: A2A_CHANNEL_ID, accountId: A2A_ACCOUNT_ID }).agentId);
  const prefix = `${peer}:`;
  for (const { match } of snapshot.config.bindings) {
    const id = match.channel === A2A_CHANNEL_ID && match.peer?.kind === 'direct' ? match.peer.id : undefined;
    // Only ids a SendMessage can produce: a context id the endpoint would refuse reaches nothing.
    if (!id?.startsWith(prefix) || !CONTEXT_ID_PATTERN.test(id.slice(prefix.length))) continue;
    // Asked of the routing itself, so account filters and the first-in-file rule apply as they do to a message.
    const hit = lookup(a2aInbound(id));
    if (hit.matchedBy.tier === 'peer') routed.add(hit.agentId);
  }
  const reached = new Set([...routed].map((id) => exposedAgentFor(snapshot, id)));
  return exposedAgents(snapshot.config).filter((a) => reached.has(a.id));
}

function a2aInbound(peerId: string): InboundMessage {
  return { channel: A2A_CHANNEL_ID, accountId: A2A_ACCOUNT_ID, peer: { kind: 'direct', id: peerId } };
}

/** The agent that answers for a routed one: itself when exposed, else the first exposed agent; none without any. */
function exposedAgentFor(snapshot: RuntimeSnapshot, agentId: string): string | undefined {
  const exposed = exposedAgents(snapshot.config);
  return exposed.some((a) => a.id === agentId) ? agentId : exposed[0]?.id;
}
