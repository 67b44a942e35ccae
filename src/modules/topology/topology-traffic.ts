import type { PeerAgentCount } from '../a2a-channel';
import type { AgentPairCount } from '../session-tools';
import type { RouteSpend } from '../usage';
import { edgeId, type TopologyGraph } from './topology-graph';

/** What was observed in the window, as counted by the stores (docs/topology.md#traffic). */
export interface TopologyTraffic {
  window: string;
  /** Start of the window (ISO 8601); it ends at the request. */
  since: string;
  /** sessions_send exchanges started in the window, per requester and target agent. */
  sessionsSend: AgentPairCount[];
  /** A2A tasks created in the window, per peer and answering agent (null: refused before an agent was chosen). */
  a2aTasks: PeerAgentCount[];
  /** What model calls used in the window, per channel, caller (peer, key, account, sending session) and agent. */
  spend: RouteSpend[];
}

/**
 * Puts the counts on the edges they travelled: a sessions_send pair on its agent-to-agent edge, a peer's tasks
 * on its a2a-in edge to the agent. Counts whose edge is not in the graph (the pair is refused now, an agent
 * was removed) stay in the traffic lists only: the graph shows what the config allows, the lists what happened.
 */
export function weighEdges(graph: TopologyGraph, traffic: TopologyTraffic): void {
  const byId = new Map(graph.edges.map((e) => [e.id, e]));
  for (const pair of traffic.sessionsSend) {
    const edge = byId.get(edgeId('agent-to-agent', `agent:${pair.from}`, `agent:${pair.to}`));
    if (edge) edge.traffic = (edge.traffic ?? 0) + pair.count;
  }
  for (const tasks of traffic.a2aTasks) {
    if (tasks.agentId === null) continue;
    const edge = byId.get(edgeId('a2a-in', `a2a-in:${tasks.peer}`, `agent:${tasks.agentId}`));
    if (edge) edge.traffic = (edge.traffic ?? 0) + tasks.count;
  }
}
