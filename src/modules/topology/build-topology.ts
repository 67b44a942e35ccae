import * as path from 'node:path';
import { mcpServerGrants } from '../../common/mcp-tool-policy';
import { exposedAgents, type McpServerSettings, type ResolvedBinding, type RuntimeSnapshot } from '../config';
import { reachableAgents } from '../a2a-channel';
import { bindingProbe, memoryGrants } from '../config-plan';
import { agentMaySendToPeers, outboundPeerRefusal } from '../outbound';
import { bindingTier, DEFAULT_ACCOUNT_ID, resolveRoute } from '../routing';
import type { PolicyCheckResultDto } from '../session-policy';
import { edgeId, type TopologyEdge, type TopologyGraph, type TopologyNode } from './topology-graph';

/** The `/admin/policy/check` evaluator over a given snapshot (PolicyCheckService.checkIn). */
export type PairCheck = (snapshot: RuntimeSnapshot, from: string, to: string) => Promise<PolicyCheckResultDto>;

export interface TopologyOptions {
  /** Also the pairs the three layers refuse, with the deciding layer and rule. */
  denied: boolean;
  /** The MCP servers plugins registered that run beside `mcp.servers` (the MCP client's `pluginMcpServers`). */
  pluginMcpServers?: ReadonlyArray<{ settings: McpServerSettings; plugin: string }>;
}

/** The channels that exist whether or not a binding names them (their adapters ship with the gateway). */
const A2A_CHANNEL = 'a2a';
const HTTP_CHANNEL = 'http';

/**
 * The graph of one snapshot (docs/topology.md): every rule is asked of the module that owns it — routing's
 * resolver for bindings, the policy-check evaluator for agent-to-agent pairs, memory's collections for grants,
 * the A2A channel's reach for inbound peers, the outbound module's refusals for outbound ones. Nothing here
 * decides access itself; it only lays the answers out as nodes and edges.
 */
export async function buildTopology(snapshot: RuntimeSnapshot, check: PairCheck, options: TopologyOptions): Promise<TopologyGraph> {
  const graph = new GraphBuilder();
  routes(snapshot, graph);
  agents(snapshot, graph);
  await agentToAgent(snapshot, check, options, graph);
  memory(snapshot, graph);
  a2a(snapshot, graph);
  mcp(snapshot, options.pluginMcpServers ?? [], graph);
  return { revision: snapshot.revision, defaultAgentId: snapshot.config.defaultAgentId, ...graph.done() };
}

class GraphBuilder {
  private readonly nodes = new Map<string, TopologyNode>();
  private readonly edges = new Map<string, TopologyEdge>();

  node(node: TopologyNode): string {
    if (!this.nodes.has(node.id)) this.nodes.set(node.id, node);
    return node.id;
  }

  edge(edge: Omit<TopologyEdge, 'id'>, qualifier?: string): void {
    const id = edgeId(edge.kind, edge.from, edge.to, qualifier);
    if (!this.edges.has(id)) this.edges.set(id, { id, ...edge });
  }

  done(): Pick<TopologyGraph, 'nodes' | 'edges'> {
    return { nodes: [...this.nodes.values()], edges: [...this.edges.values()] };
  }
}

const agentNode = (id: string) => `agent:${id}`;

function channelNode(graph: GraphBuilder, channel: string): string {
  return graph.node({ id: `channel:${channel}`, kind: 'channel', label: channel, channel });
}

function accountNode(graph: GraphBuilder, channel: string, accountId: string): string {
  channelNode(graph, channel);
  return graph.node({ id: `account:${channel}:${accountId}`, kind: 'account', label: accountId, channel, accountId });
}

/** Channels and accounts → bindings → agents, and the default route every channel falls through to. */
function routes(snapshot: RuntimeSnapshot, graph: GraphBuilder): void {
  const { config } = snapshot;
  if (config.channels.http.enabled) {
    channelNode(graph, HTTP_CHANNEL);
    for (const account of Object.keys(config.channels.http.accounts)) accountNode(graph, HTTP_CHANNEL, account);
  }
  if (config.channels.a2a.enabled) channelNode(graph, A2A_CHANNEL);
  for (const binding of config.bindings) {
    const id = graph.node(bindingNode(snapshot, binding));
    graph.edge({ kind: 'route', from: bindingSource(graph, binding), to: id });
    graph.edge({ kind: 'binding', from: id, to: agentNode(binding.agentId) });
  }
  const fallback = graph.node({ id: 'route:default', kind: 'default-route', label: 'no binding matches' });
  for (const node of graph.done().nodes.filter((n) => n.kind === 'channel')) graph.edge({ kind: 'route', from: node.id, to: fallback });
  graph.edge({ kind: 'binding', from: fallback, to: agentNode(config.defaultAgentId) });
}

/** A binding is fed by the account it names; `*` by the whole channel; no account by the default account (docs/routing.md). */
function bindingSource(graph: GraphBuilder, binding: ResolvedBinding): string {
  const { channel, accountId } = binding.match;
  if (accountId === '*') return channelNode(graph, channel);
  return accountNode(graph, channel, accountId ?? DEFAULT_ACCOUNT_ID);
}

function bindingNode(snapshot: RuntimeSnapshot, binding: ResolvedBinding): TopologyNode {
  const answered = resolveRoute(snapshot.config, bindingProbe(binding)).matchedBy.bindingIndex;
  const m = binding.match;
  const parts = [
    m.peer && `${m.peer.kind} ${m.peer.id}`,
    m.guildId !== undefined && `guild ${m.guildId}`,
    m.teamId !== undefined && `team ${m.teamId}`,
    m.accountId !== undefined && `account ${m.accountId}`,
  ].filter((p): p is string => typeof p === 'string');
  return {
    id: `binding:${binding.index}`,
    kind: 'binding',
    label: `#${binding.index} ${m.channel}${parts.length ? `: ${parts.join(', ')}` : ''}`,
    channel: m.channel,
    index: binding.index,
    tier: bindingTier(binding),
    match: structuredClone(m),
    ...(answered !== binding.index && answered !== null ? { shadowedBy: answered } : {}),
  };
}

function agents(snapshot: RuntimeSnapshot, graph: GraphBuilder): void {
  const exposed = new Set(exposedAgents(snapshot.config).map((a) => a.id));
  for (const agent of snapshot.config.agents) {
    const { emoji, name } = agent.identity;
    const title = [emoji, name ?? agent.name].filter(Boolean).join(' ');
    graph.node({
      id: agentNode(agent.id),
      kind: 'agent',
      label: title && title !== agent.id ? `${title} (${agent.id})` : agent.id,
      agentId: agent.id,
      default: agent.id === snapshot.config.defaultAgentId,
      exposed: snapshot.config.channels.a2a.enabled && exposed.has(agent.id),
      sandboxed: agent.sandbox.mode === 'all',
    });
  }
}

/** Every ordered pair of distinct agents through the evaluator behind /admin/policy/check (main sessions stand for agents). */
async function agentToAgent(snapshot: RuntimeSnapshot, check: PairCheck, options: TopologyOptions, graph: GraphBuilder): Promise<void> {
  const ids = snapshot.config.agents.map((a) => a.id);
  const pairs = ids.flatMap((from) => ids.filter((to) => to !== from).map((to) => [from, to] as const));
  const decisions = await Promise.all(pairs.map(([from, to]) => check(snapshot, from, to)));
  pairs.forEach(([from, to], i) => {
    const d = decisions[i];
    if (!d.allowed && !options.denied) return;
    graph.edge({
      kind: 'agent-to-agent',
      from: agentNode(from),
      to: agentNode(to),
      allowed: d.allowed,
      layer: d.layer,
      rule: d.rule,
      ...(d.message !== undefined ? { message: d.message } : {}),
    });
  });
}

/** Directional grants: the grantee → the agent whose directory it may search (or the directory when no agent owns it). */
function memory(snapshot: RuntimeSnapshot, graph: GraphBuilder): void {
  for (const grant of memoryGrants(snapshot).values()) {
    if (grant.owner === grant.agent) continue;
    const to =
      grant.owner !== null && snapshot.agentsById.has(grant.owner)
        ? agentNode(grant.owner)
        : graph.node({ id: `directory:${grant.path}`, kind: 'directory', label: grant.path, path: grant.path });
    graph.edge(
      { kind: 'memory', from: agentNode(grant.agent), to, collection: grant.collection, path: grant.path, pattern: grant.pattern },
      grant.collection,
    );
  }
}

/** Peers in → the exposed agents their conversations reach; agents that may use a2a_send → peers out (by name and URL). */
function a2a(snapshot: RuntimeSnapshot, graph: GraphBuilder): void {
  const { a2a: channel } = snapshot.config.channels;
  const lookup = (inbound: Parameters<typeof resolveRoute>[1]) => resolveRoute(snapshot.config, inbound);
  const senders = snapshot.config.agents.filter(agentMaySendToPeers);
  for (const peer of Object.values(channel.peers)) {
    const inId = graph.node({ id: `a2a-in:${peer.name}`, kind: 'peer-in', label: peer.name, peer: peer.name, usable: peer.usable });
    if (channel.enabled && peer.usable) {
      for (const agent of reachableAgents(snapshot, lookup, peer.name)) graph.edge({ kind: 'a2a-in', from: inId, to: agentNode(agent.id) });
    }
    if (!peer.url) continue;
    const refusal = outboundPeerRefusal(snapshot, peer.name);
    const outId = graph.node({
      id: `a2a-out:${peer.name}`,
      kind: 'peer-out',
      label: `${peer.name} ${peer.url}`,
      peer: peer.name,
      url: peer.url,
      ...(refusal ? { refusal } : {}),
    });
    if (!refusal) for (const agent of senders) graph.edge({ kind: 'a2a-out', from: agentNode(agent.id), to: outId });
  }
}

/**
 * MCP servers (`mcp.servers`, then those plugins registered, marked with the plugin), and an arrow from each agent
 * whose tool policy grants it tools of the server — the rule the runtime applies
 * (docs/mcp.md#which-agents-get-which-tools). A disabled server is drawn without arrows.
 */
function mcp(snapshot: RuntimeSnapshot, pluginServers: NonNullable<TopologyOptions['pluginMcpServers']>, graph: GraphBuilder): void {
  const servers = [
    ...Object.values(snapshot.config.mcp.servers).map((settings) => ({ settings, plugin: undefined as string | undefined })),
    ...pluginServers.filter((s) => snapshot.config.mcp.servers[s.settings.name] === undefined),
  ];
  for (const { settings: server, plugin } of servers) {
    const endpoint = server.transport === 'stdio' ? path.basename(server.command ?? '') : hostOf(server.url);
    const id = graph.node({
      id: `mcp:${server.name}`,
      kind: 'mcp-server',
      label: `${server.name} (${server.transport}${endpoint ? `: ${endpoint}` : ''})${plugin ? ` · plugin ${plugin}` : ''}`,
      server: server.name,
      ...(plugin ? { plugin } : {}),
      transport: server.transport,
      ...(endpoint ? { endpoint } : {}),
      ...(server.enabled ? {} : { refusal: 'disabled' }),
    });
    if (!server.enabled) continue;
    for (const agent of snapshot.config.agents) {
      const grants = mcpServerGrants(agent.tools, server.name);
      if (grants.length) graph.edge({ kind: 'mcp', from: agentNode(agent.id), to: id, grants });
    }
  }
}

/** The host of a URL (its path or query may carry a token; the topology shows neither). */
function hostOf(url: string | undefined): string {
  try {
    return new URL(url ?? '').host;
  } catch {
    return '';
  }
}
