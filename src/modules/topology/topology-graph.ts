import type { PeerKind } from '../config';

/** What a node of the topology stands for (docs/topology.md#nodes). */
export type TopologyNodeKind =
  'channel' | 'account' | 'binding' | 'default-route' | 'agent' | 'peer-in' | 'peer-out' | 'directory' | 'mcp-server';

/** What an edge of the topology means (docs/topology.md#edges). */
export type TopologyEdgeKind = 'route' | 'binding' | 'agent-to-agent' | 'memory' | 'a2a-in' | 'a2a-out' | 'mcp';

export interface TopologyNode {
  /** `<kind prefix>:<name>`, stable across requests: `agent:main`, `binding:0`, `a2a-in:hermes`. */
  id: string;
  kind: TopologyNodeKind;
  /** What the picture writes (config text: escaped when drawn). */
  label: string;
  /** channel, account, binding: the channel name. */
  channel?: string;
  /** account: the account id (`default` for bindings that name none). */
  accountId?: string;
  /** binding: its position in `bindings[]`, its tier, its match as normalized. */
  index?: number;
  tier?: string;
  match?: { channel: string; accountId?: string; peer?: { kind: PeerKind; id: string }; guildId?: string; teamId?: string };
  /** binding: the binding that answers the message setting exactly this binding's fields, when it is another one. */
  shadowedBy?: number;
  /** agent */
  agentId?: string;
  default?: boolean;
  /** agent: listed in channels.a2a.exposeAgents (or every agent when it is unset). */
  exposed?: boolean;
  sandboxed?: boolean;
  /** peer-in, peer-out */
  peer?: string;
  /** peer-in: its token is set (an unset ${VAR} cannot authenticate). */
  usable?: boolean;
  /** peer-out: the configured URL (never a token). */
  url?: string;
  /** peer-out, mcp-server: why a call would be refused before any I/O (`disabled`, `no_url`, `unusable`), when it would. */
  refusal?: string;
  /** directory: the absolute path of a granted collection no configured agent owns. */
  path?: string;
  /**
   * mcp-server: its name under `mcp.servers`, its transport, and where it runs (the command's file name, or the URL's
   * host; never arguments, env or headers).
   */
  server?: string;
  /** mcp-server: the plugin that registered it (`api.registerMcpServer`); absent for one of `mcp.servers`. */
  plugin?: string;
  transport?: string;
  endpoint?: string;
}

export interface TopologyEdge {
  /** `<kind>:<from>-><to>` (memory edges add `#<collection>`), stable across requests and configs. */
  id: string;
  kind: TopologyEdgeKind;
  from: string;
  to: string;
  /** agent-to-agent: what /admin/policy/check decides for the pair's main sessions. */
  allowed?: boolean;
  layer?: 'visibility' | 'policy' | null;
  rule?: string;
  message?: string;
  /** memory: the collection the grantee may search, its directory and pattern. */
  collection?: string;
  path?: string;
  pattern?: string;
  /** mcp: the agent's `tools.allow` entries that grant it tools of the server (`mcp:files:*`, `mcp:files:read_file`). */
  grants?: string[];
  /** Observed in the window: sessions_send exchanges (agent-to-agent) or A2A tasks created (a2a-in). */
  traffic?: number;
  /** Where work came along the edge in the window: what its model calls used (topology-spend.ts). */
  spend?: EdgeSpend;
}

/** What the model calls of the work that came along an edge added up to in the window (docs/topology.md#spend). */
export interface EdgeSpend {
  inputTokens: number;
  outputTokens: number;
  /** The priced calls' cost; null when none was priced. */
  cost: number | null;
  calls: number;
}

/** The configuration part of the topology: what one snapshot allows, before any traffic is counted. */
export interface TopologyGraph {
  revision: string;
  defaultAgentId: string;
  nodes: TopologyNode[];
  edges: TopologyEdge[];
}

export function edgeId(kind: TopologyEdgeKind, from: string, to: string, qualifier?: string): string {
  return `${kind}:${from}->${to}${qualifier === undefined ? '' : `#${qualifier}`}`;
}
