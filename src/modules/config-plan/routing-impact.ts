import type { NormalizedConfig, ResolvedBinding } from '../config';
import { type InboundMessage, resolveRoute, type RouteTier } from '../routing';

export interface RouteOutcome {
  agentId: string;
  matchedBy: { tier: RouteTier; bindingIndex: number | null };
}

/** One probe message and who answers it under the current and the candidate config. */
export interface RoutingImpactEntry {
  /** What the probe stands for: `binding` (a message exactly matching a binding of either side) or `default`. */
  probe: 'binding' | 'default';
  inbound: InboundMessage | null;
  before: RouteOutcome;
  after: RouteOutcome;
  /** Another agent or another tier answers (an index that only shifted is not a change). */
  changed: boolean;
}

/**
 * Who gets what, before and after: one probe per distinct binding match of either config (a message that
 * sets exactly the binding's fields; an `accountId: "*"` binding is probed with the default account), run
 * through the resolver real traffic uses, plus the default route (a message no binding matches). A binding
 * that is gone shows its messages falling through to whatever answers them now, the default included.
 */
export function routingImpact(before: NormalizedConfig, after: NormalizedConfig): RoutingImpactEntry[] {
  const probes = new Map<string, InboundMessage>();
  for (const binding of [...before.bindings, ...after.bindings]) {
    const inbound = bindingProbe(binding);
    const key = JSON.stringify(inbound);
    if (!probes.has(key)) probes.set(key, inbound);
  }
  const entries: RoutingImpactEntry[] = [...probes.values()].map((inbound) => {
    const was = outcome(before, inbound);
    const now = outcome(after, inbound);
    return { probe: 'binding', inbound, before: was, after: now, changed: !sameOutcome(was, now) };
  });
  const defaultBefore: RouteOutcome = { agentId: before.defaultAgentId, matchedBy: { tier: 'default', bindingIndex: null } };
  const defaultAfter: RouteOutcome = { agentId: after.defaultAgentId, matchedBy: { tier: 'default', bindingIndex: null } };
  entries.push({
    probe: 'default',
    inbound: null,
    before: defaultBefore,
    after: defaultAfter,
    changed: defaultBefore.agentId !== defaultAfter.agentId,
  });
  return entries;
}

/** The message that sets exactly a binding's fields (an `accountId: "*"` binding: the default account). */
export function bindingProbe(binding: ResolvedBinding): InboundMessage {
  const m = binding.match;
  const inbound: InboundMessage = { channel: m.channel };
  if (m.accountId !== undefined && m.accountId !== '*') inbound.accountId = m.accountId;
  if (m.peer) inbound.peer = { kind: m.peer.kind, id: m.peer.id };
  if (m.guildId !== undefined) inbound.guildId = m.guildId;
  if (m.teamId !== undefined) inbound.teamId = m.teamId;
  return inbound;
}

function outcome(config: NormalizedConfig, inbound: InboundMessage): RouteOutcome {
  const route = resolveRoute(config, inbound);
  return { agentId: route.agentId, matchedBy: { tier: route.matchedBy.tier, bindingIndex: route.matchedBy.bindingIndex } };
}

/** Same agent through the same tier; a binding that only moved in the list (its index) is not a change of route. */
function sameOutcome(a: RouteOutcome, b: RouteOutcome): boolean {
  return a.agentId === b.agentId && a.matchedBy.tier === b.matchedBy.tier;
}
