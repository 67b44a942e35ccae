import { agentGroups, type AgentGroup } from './agent-groups';
import { dotAttributes } from './dot-text';
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
  mcp: { color: '#8c564b', style: 'solid', legend: 'agent → MCP server it may use' },
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
  'mcp-server': '#efe2da',
};
/** Beyond this many separate agent-to-agent arrows the picture stops being readable (and dot slows down): the JSON has them all. */
export const MAX_DRAWN_AGENT_EDGES = 300;

/** Which side of a plan to paint. Both sides are laid out from the same graph, so every node stands in the same place. */
export type PlanSide = 'before' | 'after';

export interface TopologyDotOptions {
  /**
   * `after` (the default): what the plan adds in green, what it removes dashed red. `before`: the same layout with
   * what the plan adds left invisible (it still takes its place) and what it removes drawn as it is today.
   */
  side?: PlanSide;
}

/**
 * The DOT text of a topology (docs/topology.md#the-picture): left to right, inbound (channels with their
 * accounts, peers in) → bindings → agents → peers out, shared directories and MCP servers, each column a
 * cluster. Agent-to-agent and memory arrows
 * do not pull on the ranks; agents that all reach each other the same way are one cluster with its status
 * (agent-groups.ts). Every text from the config goes through dotString.
 */
export function topologyDot(graph: MarkedGraph, title: string, options: TopologyDotOptions = {}): string {
  const side = options.side ?? 'after';
  const plan = graph.nodes.some((n) => n.change) || graph.edges.some((e) => e.change) || options.side !== undefined;
  const ids = new Map(graph.nodes.map((n, i) => [n.id, `n${i}`]));
  const out: string[] = [
    'digraph topology {',
    `graph [${dotAttributes({ rankdir: 'LR', compound: 'true', newrank: 'true', fontname: 'Helvetica', fontsize: 12, nodesep: 0.12, ranksep: 1.1, labelloc: 't', labeljust: 'l' })}, label=${titleAndLegend(title, { plan, traffic: graph.edges.some((e) => e.traffic || e.spend) })}];`,
    `node [${dotAttributes({ shape: 'box', style: 'rounded,filled', fontname: 'Helvetica', fontsize: 10, height: 0.28, margin: '0.08,0.03' })}];`,
    `edge [${dotAttributes({ fontname: 'Helvetica', fontsize: 9, arrowsize: 0.6 })}];`,
  ];
  const byKind = (kinds: TopologyNodeKind[]) => graph.nodes.filter((n) => kinds.includes(n.kind));
  const nodeLine = (n: MarkedNode) => `${ids.get(n.id)} [${dotAttributes(nodeAttributes(n, side))}];`;

  out.push(...cluster('inbound', 'Channels and accounts', channelClusters(byKind(['channel', 'account']), nodeLine)));
  out.push(...cluster('bindings', 'Bindings', byKind(['binding', 'default-route']).map(nodeLine)));
  const agents = byKind(['agent']);
  const { lines: agentLines, groupOf } = agentCluster(agents, graph.edges, nodeLine, side);
  out.push(...agentLines);
  out.push(...cluster('peers_in', 'A2A peers in', byKind(['peer-in']).map(nodeLine)));
  out.push(...cluster('peers_out', 'A2A peers out', byKind(['peer-out']).map(nodeLine)));
  out.push(...cluster('directories', 'Shared directories', byKind(['directory']).map(nodeLine)));
  out.push(...cluster('mcp_servers', 'MCP servers', byKind(['mcp-server']).map(nodeLine)));
  // One column per role, whatever the arrows say: an agent nothing routes to still stands with the agents.
  out.push(...sameRank(byKind(['binding', 'default-route', 'peer-in']), ids));
  out.push(...sameRank(agents, ids));
  out.push(...sameRank(byKind(['peer-out', 'directory', 'mcp-server']), ids));
  out.push(...edgeLines(graph.edges, ids, groupOf, agents.length, side));
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

function nodeAttributes(n: MarkedNode, side: PlanSide): Record<string, string | string[] | number | undefined> {
  const flags = [
    n.default && 'default',
    n.exposed && 'exposed to A2A',
    n.sandboxed && 'sandboxed',
    n.shadowedBy !== undefined && `shadowed by #${n.shadowedBy}`,
  ];
  const note = flags.filter(Boolean).join(', ');
  const unusable = n.usable === false || n.refusal !== undefined;
  // Before the change: what it adds is not there yet, what it removes is still an ordinary node. Only paint
  // changes between the sides — label, shape and pen width (which size the node) stay, so the layout does.
  const change = side === 'before' ? undefined : n.change;
  const dashed = change === 'removed' || unusable || n.shadowedBy !== undefined;
  return {
    label: note ? [n.label, note] : n.label,
    tooltip: n.id,
    fillcolor: NODE_FILL[n.kind],
    shape: n.kind === 'default-route' ? 'ellipse' : undefined,
    penwidth: n.change || n.default ? 2 : undefined,
    color: change === 'added' ? ADDED : change === 'removed' ? REMOVED : undefined,
    style: side === 'before' && n.change === 'added' ? 'invis' : dashed ? 'rounded,filled,dashed' : undefined,
    fontcolor: unusable ? '#999999' : undefined,
  };
}

/** The agents' column: groups of agents that reach each other alike as nested clusters. */
function agentCluster(agents: MarkedNode[], edges: MarkedEdge[], nodeLine: (n: MarkedNode) => string, side: PlanSide) {
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
    const { color, style } = statusStyle(group.status, side);
    lines.push(`subgraph cluster_agents_${index} {`);
    // The label is the same on both sides (it sizes the cluster); before the change a group the plan adds is not drawn.
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

function statusStyle(status: string, side: PlanSide): { color: string; style: string } {
  const [decision, marked] = status.split('|');
  const base = EDGE_STYLE[decision === 'denied' ? 'denied' : 'agent-to-agent'];
  if (side === 'before' && marked === 'added') return { color: 'transparent', style: 'solid' };
  const change = side === 'before' ? undefined : marked;
  if (change === 'added') return { color: ADDED, style: 'bold' };
  if (change === 'removed') return { color: REMOVED, style: 'dashed' };
  return { color: base.color, style: base.style };
}

function edgeLines(
  edges: MarkedEdge[],
  ids: Map<string, string>,
  groupOf: Map<string, { group: AgentGroup; index: number }>,
  agentCount: number,
  side: PlanSide,
): string[] {
  const out: string[] = [];
  const edgeAttributes = (e: MarkedEdge) => edgePaint(e, side);
  const status = pairStatuses(edges);
  const fromGroup = (e: MarkedEdge) => e.kind === 'a2a-out' || e.kind === 'mcp';
  const sameOutbound = new Set(edges.filter(fromGroup).map((e) => `${e.from}\u0000${e.to}\u0000${e.change ?? ''}`));
  const drawn = new Set<string>();
  let agentEdges = 0;
  let skipped = 0;
  for (const e of edges) {
    const from = ids.get(e.from);
    const to = ids.get(e.to);
    if (!from || !to) continue;
    if (fromGroup(e)) {
      // A group whose members all call this peer or MCP server (alike) is one arrow from its cluster.
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
    if (e.traffic || e.spend) out.push(`${from} -> ${to} [${dotAttributes(trafficAttributes(e))}];`);
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

/** An edge's attributes on one side of a plan: as for nodes, only paint differs between the sides. */
function edgePaint(e: MarkedEdge, side: PlanSide): Record<string, string | readonly string[] | number | undefined> {
  const kind = e.kind === 'agent-to-agent' && !e.allowed ? 'denied' : e.kind;
  const base = EDGE_STYLE[kind];
  const crossesColumns = e.kind === 'agent-to-agent' || e.kind === 'memory';
  const change = side === 'before' ? undefined : e.change;
  const hidden = side === 'before' && e.change === 'added';
  return {
    color: change === 'added' ? ADDED : change === 'removed' ? REMOVED : base.color,
    style: hidden ? 'invis' : change === 'removed' ? 'dashed' : change === 'added' ? 'bold' : base.style,
    penwidth: e.change ? 2 : e.traffic ? Math.min(1 + Math.log2(1 + e.traffic), 6) : undefined,
    label: e.kind === 'memory' ? e.collection : trafficLines(e, 'tasks'),
    fontcolor: base.color,
    tooltip: e.rule ?? e.id,
    constraint: crossesColumns ? 'false' : undefined,
  };
}

/** What was observed on an edge, one line each: its count (`3 tasks`) and its spend (`1234 tokens · cost 0.0021`). */
function trafficLines(e: MarkedEdge, counted: string): string[] | undefined {
  const lines = [
    e.traffic ? `${e.traffic} ${counted}` : undefined,
    e.spend
      ? `${e.spend.inputTokens + e.spend.outputTokens} tokens${e.spend.cost === null ? '' : ` · cost ${roundedCost(e.spend.cost)}`}`
      : undefined,
  ].filter((line): line is string => line !== undefined);
  return lines.length ? lines : undefined;
}

/** Four significant digits: enough to compare edges, short enough for a label. */
function roundedCost(cost: number): string {
  return String(Number(cost.toPrecision(4)));
}

/** The observed sessions_send traffic (and spend) of a pair, drawn beside (not instead of) its policy arrow. */
function trafficAttributes(e: MarkedEdge): Record<string, string | readonly string[] | number | undefined> {
  const n = e.traffic ?? 0;
  return {
    color: '#08306b',
    penwidth: Math.min(1 + Math.log2(1 + n), 6),
    label: trafficLines(e, 'sessions_send'),
    fontcolor: '#08306b',
    constraint: 'false',
    tooltip: e.id,
  };
}

/** One legend entry: a short stroke sample in its colour, and what it means. */
interface LegendEntry {
  color: string;
  sample: string;
  text: string;
}

const LEGEND_PER_ROW = 4;

/**
 * The picture's title and its legend as the graph's own label: a compact table above the drawing, four entries a
 * row, that takes no place in the layout (so it cannot push nodes around, and both sides of a plan keep theirs).
 * Plan entries only on a plan's pictures, the traffic entry only when traffic is drawn.
 */
function titleAndLegend(title: string, shown: { plan: boolean; traffic: boolean }): string {
  const sample = (style: string) => (style === 'dotted' ? '┈┈' : style === 'dashed' ? '┅┅' : '━━');
  const entries: LegendEntry[] = Object.values(EDGE_STYLE).map((s) => ({ color: s.color, sample: sample(s.style), text: s.legend }));
  if (shown.plan) {
    entries.push({ color: ADDED, sample: '━━', text: 'added by the plan' });
    entries.push({ color: REMOVED, sample: '┅┅', text: 'removed by the plan' });
  }
  if (shown.traffic) entries.push({ color: '#08306b', sample: '━━', text: 'observed traffic' });
  entries.push({ color: '#555555', sample: '- -', text: 'dashed box: unusable, shadowed' });
  const rows: string[] = [];
  for (let i = 0; i < entries.length; i += LEGEND_PER_ROW) {
    const cells = entries
      .slice(i, i + LEGEND_PER_ROW)
      // The spacer cell keeps entries apart where the viewer's font is wider than the one Graphviz measured with.
      .map(
        (e) =>
          `<td align="right"><font color="${e.color}">${e.sample}</font></td><td align="left">${htmlText(e.text)}</td><td width="18"></td>`,
      );
    rows.push(`<tr>${cells.join('')}</tr>`);
  }
  const legend = `<font point-size="9">${rows.length ? `<table border="0" cellborder="0" cellspacing="0" cellpadding="1">${rows.join('')}</table>` : ''}</font>`;
  return `<<table border="0" cellborder="0" cellspacing="2"><tr><td align="left"><b>${htmlText(title.slice(0, 200))}</b></td></tr><tr><td align="left">${legend}</td></tr></table>>`;
}

/** Text inside a Graphviz HTML label. */
function htmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
