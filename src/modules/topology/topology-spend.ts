import { parseSessionKey } from '../sessions';
import type { RouteSpend } from '../usage';
import { edgeId, type EdgeSpend, type TopologyEdge, type TopologyGraph } from './topology-graph';

/** Channels whose caller is not a channel account: a peer, a key, a sending session. */
const NOT_ACCOUNTS: ReadonlySet<string> = new Set(['a2a', 'openai', 'mcp', 'agent', 'internal']);

/**
 * Puts each route's spend on the edges its work travelled:
 * - `a2a` (caller: the peer) on the peer's `a2a-in` edge to the agent;
 * - `agent` (caller: the sending session key) on the `agent-to-agent` edge from that session's agent;
 * - a channel account on the one way the graph has from it to the agent: the `route` edge from the account (or
 *   its channel, for `*` bindings and the default route) into a binding, and that binding's edge to the agent.
 *   When the graph has several (bindings that differ by peer, guild or team), the row does not say which one
 *   answered, so the spend stays in the list only;
 * - OpenAI and MCP keys have no node, so their spend is in the list only.
 * Spend whose edge is not in the graph (a refused pair, a removed agent) stays in the list, as traffic does.
 */
export function spendEdges(graph: TopologyGraph, routes: readonly RouteSpend[]): void {
  const byId = new Map(graph.edges.map((e) => [e.id, e]));
  for (const route of routes) {
    for (const edge of edgesOf(graph, byId, route)) edge.spend = added(edge.spend, route);
  }
}

function edgesOf(graph: TopologyGraph, byId: ReadonlyMap<string, TopologyEdge>, route: RouteSpend): TopologyEdge[] {
  const agent = `agent:${route.agentId}`;
  const found = (id: string) => {
    const edge = byId.get(id);
    return edge ? [edge] : [];
  };
  if (route.channel === 'a2a') return found(edgeId('a2a-in', `a2a-in:${route.caller}`, agent));
  if (route.channel === 'agent') {
    const from = parseSessionKey(route.caller)?.agentId;
    return from === undefined ? [] : found(edgeId('agent-to-agent', `agent:${from}`, agent));
  }
  if (NOT_ACCOUNTS.has(route.channel)) return [];
  return accountPath(graph, byId, route.channel, route.caller, agent);
}

/** The route and binding edges from an account to an agent, when the graph has exactly one such path. */
function accountPath(
  graph: TopologyGraph,
  byId: ReadonlyMap<string, TopologyEdge>,
  channel: string,
  accountId: string,
  agent: string,
): TopologyEdge[] {
  const sources = new Set([`account:${channel}:${accountId}`, `channel:${channel}`]);
  const paths = graph.edges
    .filter((e) => e.kind === 'route' && sources.has(e.from))
    .map((route) => [route, byId.get(edgeId('binding', route.to, agent))] as const)
    .filter((path): path is readonly [TopologyEdge, TopologyEdge] => path[1] !== undefined);
  return paths.length === 1 ? [...paths[0]] : [];
}

function added(sum: EdgeSpend | undefined, route: RouteSpend): EdgeSpend {
  const cost = sum?.cost === undefined || sum.cost === null ? route.cost : route.cost === null ? sum.cost : sum.cost + route.cost;
  return {
    inputTokens: (sum?.inputTokens ?? 0) + route.inputTokens,
    outputTokens: (sum?.outputTokens ?? 0) + route.outputTokens,
    cost,
    calls: (sum?.calls ?? 0) + route.calls,
  };
}
