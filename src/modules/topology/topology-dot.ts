import { agentGroups, type AgentGroup } from './agent-groups';
import { dotAttributes, dotString } from './dot-text';
import type { MarkedEdge, MarkedGraph, MarkedNode } from './topology-diff';
import type { TopologyEdgeKind, TopologyNodeKind } from './topology-graph';

/** How each kind of edge looks; the legend is drawn from the same table. */
const EDGE_STYLE: Record<TopologyEdgeKind | 'denied', { color: string; style: string; legend: string }> = {
  route: { color: '#7f7f7f', style: 'solid', legend: 'channel / account → binding' },
  binding: { color: '#7f7f7f', style: 'bold', legend: 'binding → agent' },
  'agent-to-agent': { color: '#1f77b4', style: 'solid', legend: 'agent-to-agent allowed' },
  denied: { color: '#bbbbbb', style: 'dotted', legend: 'agent-to-agent denied' },
  memory: { color: '#2ca02c', style: 'dashed', legend: 'may search memory of' },
  'a2a-in': { color: '#ff7f0e', style: 'solid', legend: 'A2A peer in → agent' },
  'a2a-out': { color: '#9467bd', style: 'solid', legend: 'agent → A2A peer out' },
};
const ADDED = '#2ca02c';
const REMOVED = '#d62728';
const NODE_FILL: Record<TopologyNodeKind, string> = {
  channel: '#eeeeee',
  account: '#f7f7f7',
  binding: '#ffffff',
  'default-route': '#ffffff',
  agent: '#dbe9f6',
  'peer-in': '#fde4cc',
  'peer-out': '#e8def3',
  directory: '#e2f2e2',
};
/** Beyond this many separate agent-to-agent arrows the picture stops being readable (and dot slows down): the JSON has them all. */
export const MAX_DRAWN_AGENT_EDGES = 300;

/**
 * The DOT text of a topology (docs/topology.md#the-picture): left to right, inbound (channels with their
 * accounts, peers in) → bindings → agents → peers out, each column a cluster. Agent-to-agent and memory arrows
 * do not pull on the ranks; agents that all reach each other the same way are one cluster with its status
 * (agent-groups.ts). Every text from the config goes through dotString.
 */
export function topologyDot(graph: MarkedGraph, title: string): string {
  const ids = new Map(graph.nodes.map((n, i) => [n.id, `n${i}`]));
  const out: string[] = [
    'digraph topology {',
    `graph [${dotAttributes({ rankdir: 'LR', compound: 'true', newrank: 'true', fontname: 'Helvetica', fontsize: 12, nodesep: 0.12, ranksep: 1.1, labelloc: 't' })}, label=${dotString(title, 200)}];`,
    `node [${dotAttributes({ shape: 'box', style: 'rounded,filled', fontname: 'Helvetica', fontsize: 10, height: 0.28, margin: '0.08,0.03' })}];`,
    `edge [${dotAttributes({ fontname: 'Helvetica', fontsize: 9, arrowsize: 0.6 })}];`,
  ];
  const byKind = (kinds: TopologyNodeKind[]) => graph.nodes.filter((n) => kinds.includes(n.kind));
  const nodeLine = (n: MarkedNode) => `${ids.get(n.id)} [${dotAttributes(nodeAttributes(n))}];`;

  out.push(...cluster('inbound', 'Channels and accounts', channelClusters(byKind(['channel', 'account']), nodeLine)));
  out.push(...cluster('bindings', 'Bindings', byKind(['binding', 'default-route']).map(nodeLine)));
  const agents = byKind(['agent']);
  const { lines: agentLines, groupOf } = agentCluster(agents, graph.edges, nodeLine);
  out.push(...agentLines);
  out.push(...cluster('peers_in', 'A2A peers in', byKind(['peer-in']).map(nodeLine)));
  out.push(...cluster('peers_out', 'A2A peers out', byKind(['peer-out']).map(nodeLine)));
  out.push(...cluster('directories', 'Shared directories', byKind(['directory']).map(nodeLine)));
  // One column per role, whatever the arrows say: an agent nothing routes to still stands with the agents.
  out.push(...sameRank(byKind(['binding', 'default-route', 'peer-in']), ids));
  out.push(...sameRank(agents, ids));
  out.push(...sameRank(byKind(['peer-out', 'directory']), ids));
  out.push(...edgeLines(graph.edges, ids, groupOf, agents.length));
  out.push(...legend());
  out.push('}');
  return out.join('\n');
}

function sameRank(nodes: MarkedNode[], ids: Map<string, string>): string[] {
  return nodes.length ? [`{ rank=same; ${nodes.map((n) => ids.get(n.id)).join('; ')} }`] : [];
}

function cluster(name: string, label: string, lines: string[]): string[] {
  if (!lines.length) return [];
  return [`subgraph cluster_${name} {`, `graph [${dotAttributes({ label, style: 'rounded', color: '#cccccc' })}];`, ...lines, '}'];
}

function channelClusters(nodes: MarkedNode[], nodeLine: (n: MarkedNode) => string): string[] {
  return nodes
    .filter((n) => n.kind === 'channel')
    .flatMap((channel, i) =>
      cluster(`channel_${i}`, `channel ${channel.label}`, [
        nodeLine({ ...channel, label: `${channel.label} (any account)` }),
        ...nodes.filter((n) => n.kind === 'account' && n.channel === channel.channel).map(nodeLine),
      ]),
    );
}

function nodeAttributes(n: MarkedNode): Record<string, string | string[] | number | undefined> {
  const flags = [
    n.default && 'default',
    n.exposed && 'exposed to A2A',
    n.sandboxed && 'sandboxed',
    n.shadowedBy !== undefined && `shadowed by #${n.shadowedBy}`,
  ];
  const note = flags.filter(Boolean).join(', ');
  const unusable = n.usable === false || n.refusal !== undefined;
  return {
    label: note ? [n.label, note] : n.label,
    tooltip: n.id,
    fillcolor: NODE_FILL[n.kind],
    shape: n.kind === 'default-route' ? 'ellipse' : undefined,
    penwidth: n.change || n.default ? 2 : undefined,
    color: n.change === 'added' ? ADDED : n.change === 'removed' ? REMOVED : undefined,
    style: n.change === 'removed' || unusable || n.shadowedBy !== undefined ? 'rounded,filled,dashed' : undefined,
    fontcolor: unusable ? '#999999' : undefined,
  };
}

/** The agents' column: groups of agents that reach each other alike as nested clusters. */
function agentCluster(agents: MarkedNode[], edges: MarkedEdge[], nodeLine: (n: MarkedNode) => string) {
  const status = pairStatuses(edges);
  const groups = agentGroups(
    agents.map((a) => a.id),
    (from, to) => status.get(`${from}\u0000${to}`) ?? '',
  );
  const groupOf = new Map<string, { group: AgentGroup; index: number }>();
  groups.forEach((group, index) => group.members.forEach((m) => groupOf.set(m, { group, index })));
  const lines: string[] = [];
  groups.forEach((group, index) => {
    const members = agents.filter((a) => groupOf.get(a.id)?.index === index);
    const { color, style } = statusStyle(group.status);
    lines.push(`subgraph cluster_agents_${index} {`);
    lines.push(
      `graph [${dotAttributes({ label: `${members.length} agents: every pair ${group.status.replace('|', ', ')}`, color, style: `rounded,${style}`, penwidth: 1.5, fontcolor: color })}];`,
    );
    lines.push(...members.map(nodeLine), '}');
  });
  lines.push(...agents.filter((a) => !groupOf.has(a.id)).map(nodeLine));
  return { lines: cluster('agents', 'Agents', lines), groupOf };
}

/** `allowed`, `denied`, with ` added` / ` removed` in a plan: what a pair's arrow looks like. */
function pairStatuses(edges: MarkedEdge[]): Map<string, string> {
  const status = new Map<string, string>();
  for (const e of edges) {
    if (e.kind !== 'agent-to-agent') continue;
    status.set(`${e.from}\u0000${e.to}`, `${e.allowed ? 'allowed' : 'denied'}${e.change ? `|${e.change}` : ''}`);
  }
  return status;
}

function statusStyle(status: string): { color: string; style: string } {
  const [decision, change] = status.split('|');
  const base = EDGE_STYLE[decision === 'denied' ? 'denied' : 'agent-to-agent'];
  if (change === 'added') return { color: ADDED, style: 'bold' };
  if (change === 'removed') return { color: REMOVED, style: 'dashed' };
  return { color: base.color, style: base.style };
}

function edgeLines(
  edges: MarkedEdge[],
  ids: Map<string, string>,
  groupOf: Map<string, { group: AgentGroup; index: number }>,
  agentCount: number,
): string[] {
  const out: string[] = [];
  const status = pairStatuses(edges);
  const sameOutbound = new Set(edges.filter((e) => e.kind === 'a2a-out').map((e) => `${e.from}\u0000${e.to}\u0000${e.change ?? ''}`));
  const drawn = new Set<string>();
  let agentEdges = 0;
  let skipped = 0;
  for (const e of edges) {
    const from = ids.get(e.from);
    const to = ids.get(e.to);
    if (!from || !to) continue;
    if (e.kind === 'a2a-out') {
      // A group whose members all call this peer (alike) is one arrow from its cluster.
      const source = groupOf.get(e.from);
      if (source && source.group.members.every((m) => sameOutbound.has(`${m}\u0000${e.to}\u0000${e.change ?? ''}`))) {
        const key = `cluster_agents_${source.index}\u0000${e.to}\u0000${e.change ?? ''}`;
        if (!drawn.has(key)) {
          drawn.add(key);
          const tail = ids.get(source.group.members[0])!;
          out.push(`${tail} -> ${to} [${dotAttributes({ ...edgeAttributes(e), ltail: `cluster_agents_${source.index}` })}];`);
        }
        continue;
      }
    }
    if (e.kind !== 'agent-to-agent') {
      out.push(`${from} -> ${to} [${dotAttributes(edgeAttributes(e))}];`);
      continue;
    }
    if (e.traffic) out.push(`${from} -> ${to} [${dotAttributes(trafficAttributes(e))}];`);
    const source = groupOf.get(e.from);
    const target = groupOf.get(e.to);
    if (source && source.index === target?.index) continue; // inside a group: the cluster says it
    // A group's arrows agree for all members, so one arrow stands for the group (and for a whole target group).
    const tail = source ? `cluster_agents_${source.index}` : undefined;
    const head = target && uniformInto(e.from, target.group, status) ? `cluster_agents_${target.index}` : undefined;
    const key = `${tail ?? e.from}\u0000${head ?? e.to}`;
    if (drawn.has(key)) continue;
    drawn.add(key);
    if (++agentEdges > MAX_DRAWN_AGENT_EDGES) {
      skipped++;
      continue;
    }
    const fromNode = tail ? ids.get(source!.group.members[0])! : from;
    const toNode = head ? ids.get(target!.group.members[0])! : to;
    out.push(`${fromNode} -> ${toNode} [${dotAttributes({ ...edgeAttributes(e), ltail: tail, lhead: head })}];`);
  }
  if (skipped)
    out.push(
      `skipped [${dotAttributes({ shape: 'note', label: `${skipped} more agent-to-agent arrows among ${agentCount} agents: see GET /admin/topology`, fillcolor: '#fff8dc' })}];`,
    );
  return out;
}

/** Whether the source's arrow has the same status into every member of the target group. */
function uniformInto(from: string, group: AgentGroup, status: Map<string, string>): boolean {
  const mine = status.get(`${from}\u0000${group.members[0]}`);
  return group.members.every((m) => status.get(`${from}\u0000${m}`) === mine);
}

function edgeAttributes(e: MarkedEdge): Record<string, string | number | undefined> {
  const kind = e.kind === 'agent-to-agent' && !e.allowed ? 'denied' : e.kind;
  const base = EDGE_STYLE[kind];
  const crossesColumns = e.kind === 'agent-to-agent' || e.kind === 'memory';
  return {
    color: e.change === 'added' ? ADDED : e.change === 'removed' ? REMOVED : base.color,
    style: e.change === 'removed' ? 'dashed' : e.change === 'added' ? 'bold' : base.style,
    penwidth: e.change ? 2 : e.traffic ? Math.min(1 + Math.log2(1 + e.traffic), 6) : undefined,
    label: e.kind === 'memory' ? e.collection : e.traffic ? `${e.traffic} tasks` : undefined,
    fontcolor: base.color,
    tooltip: e.rule ?? e.id,
    constraint: crossesColumns ? 'false' : undefined,
  };
}

/** The observed sessions_send traffic of a pair, drawn beside (not instead of) its policy arrow. */
function trafficAttributes(e: MarkedEdge): Record<string, string | number | undefined> {
  const n = e.traffic ?? 0;
  return {
    color: '#08306b',
    penwidth: Math.min(1 + Math.log2(1 + n), 6),
    label: `${n} sessions_send`,
    fontcolor: '#08306b',
    constraint: 'false',
    tooltip: e.id,
  };
}

/** A table node: one row per edge style, and what the node outlines mean. */
function legend(): string[] {
  const rows = Object.values(EDGE_STYLE).map(
    (s) =>
      `<tr><td><font color="${s.color}">${s.style === 'dotted' ? '┈┈┈' : s.style === 'dashed' ? '┅┅┅' : '━━━'}</font></td><td align="left">${s.legend}</td></tr>`,
  );
  rows.push(`<tr><td><font color="${ADDED}">━━━</font></td><td align="left">added by the plan</td></tr>`);
  rows.push(`<tr><td><font color="${REMOVED}">┅┅┅</font></td><td align="left">removed by the plan</td></tr>`);
  rows.push(`<tr><td><font color="#08306b">━━━</font></td><td align="left">observed traffic (width grows with the count)</td></tr>`);
  rows.push('<tr><td>- - -</td><td align="left">dashed box: unusable peer, shadowed binding</td></tr>');
  const table = `<<table border="0" cellborder="0" cellspacing="1"><tr><td colspan="2"><b>Legend</b></td></tr>${rows.join('')}</table>>`;
  return [
    'subgraph cluster_legend {',
    `graph [${dotAttributes({ label: '', color: '#cccccc' })}];`,
    `legend [shape=plaintext, style="", label=${table}];`,
    '}',
  ];
}
