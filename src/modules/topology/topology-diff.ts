import type { TopologyEdge, TopologyGraph, TopologyNode } from './topology-graph';

/** How a node or edge of a plan's picture changes: new in the candidate, or gone from it. */
export type TopologyChange = 'added' | 'removed';

export type MarkedNode = TopologyNode & { change?: TopologyChange };
export type MarkedEdge = TopologyEdge & { change?: TopologyChange };

/** A graph to draw: every node and edge of either side, the changed ones marked. */
export interface MarkedGraph {
  nodes: MarkedNode[];
  edges: MarkedEdge[];
}

export interface TopologyDiff {
  nodesAdded: TopologyNode[];
  nodesRemoved: TopologyNode[];
  edgesAdded: TopologyEdge[];
  edgesRemoved: TopologyEdge[];
}

/**
 * The candidate's graph against the served one, by the stable ids of nodes and edges: an edge whose meaning
 * changed (a binding to another agent, a pair the layers now refuse) is one edge removed and another added.
 * `union` is the candidate's graph plus what it lost, which is what the plan picture draws.
 */
export function diffTopology(before: TopologyGraph, after: TopologyGraph): { diff: TopologyDiff; union: MarkedGraph } {
  const nodesBefore = new Set(before.nodes.map((n) => n.id));
  const nodesAfter = new Set(after.nodes.map((n) => n.id));
  const edgesBefore = new Set(before.edges.map((e) => e.id));
  const edgesAfter = new Set(after.edges.map((e) => e.id));
  const diff: TopologyDiff = {
    nodesAdded: after.nodes.filter((n) => !nodesBefore.has(n.id)),
    nodesRemoved: before.nodes.filter((n) => !nodesAfter.has(n.id)),
    edgesAdded: after.edges.filter((e) => !edgesBefore.has(e.id)),
    edgesRemoved: before.edges.filter((e) => !edgesAfter.has(e.id)),
  };
  const union: MarkedGraph = {
    nodes: [
      ...after.nodes.map((n): MarkedNode => (nodesBefore.has(n.id) ? n : { ...n, change: 'added' })),
      ...diff.nodesRemoved.map((n): MarkedNode => ({ ...n, change: 'removed' })),
    ],
    edges: [
      ...after.edges.map((e): MarkedEdge => (edgesBefore.has(e.id) ? e : { ...e, change: 'added' })),
      ...diff.edgesRemoved.map((e): MarkedEdge => ({ ...e, change: 'removed' })),
    ],
  };
  return { diff, union };
}
