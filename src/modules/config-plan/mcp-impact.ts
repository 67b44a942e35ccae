import { isDeepStrictEqual } from 'node:util';
import { mcpServerGrants, mcpToolPolicyName, MCP_TOOL_PREFIX } from '../../common/mcp-tool-policy';
import type { McpServerSettings, ResolvedAgent, RuntimeSnapshot } from '../config';
import { isToolAllowed } from '../runtime';
import { splitKeys } from './value-change';

/** An MCP server whose settings change: the keys that differ (never their values: `env` and `headers` are secrets). */
export interface McpServerChange {
  name: string;
  keys: string[];
}

/** The MCP tools an agent gains and loses, by policy name (`mcp:<server>:<tool>`). */
export interface McpAgentToolChange {
  agentId: string;
  gained: string[];
  lost: string[];
}

export interface McpImpact {
  serversAdded: string[];
  serversRemoved: string[];
  /** Applied without a restart: a changed server is a new connection, the old one closes once its calls end. */
  serversChanged: McpServerChange[];
  /**
   * Per agent (in either config), the MCP tools it gains and loses. A server whose tools the gateway has listed
   * counts by its tools; one not listed yet (lazy, new, down) by the grant: `mcp:<server>:*` is "every tool of it".
   */
  agents: McpAgentToolChange[];
}

/** The tool names the gateway last listed for a server (undefined: not listed yet). */
export type KnownMcpTools = (server: string) => readonly string[] | undefined;

/**
 * What a change does to the MCP client (docs/mcp.md): servers added, removed or changed, and which agents gain or
 * lose which MCP tools — through the same policy the runtime applies (`isToolAllowed`), against the tools each server
 * lists now. The servers plugins registered (`pluginServers`) are the same on both sides: a change of an agent's grants
 * to them counts, and a name the candidate's `mcp.servers` takes is the config's there.
 */
export function mcpImpact(
  before: RuntimeSnapshot,
  after: RuntimeSnapshot,
  known: KnownMcpTools,
  pluginServers: readonly McpServerSettings[] = [],
): McpImpact {
  const was = before.config.mcp.servers;
  const now = after.config.mcp.servers;
  const servers = splitKeys(Object.keys(was), Object.keys(now));
  const serversChanged = servers.kept.map((name) => ({ name, keys: changedKeys(was[name], now[name]) })).filter((c) => c.keys.length > 0);
  const ids = [...new Set([...before.agentsById.keys(), ...after.agentsById.keys()])];
  const agents: McpAgentToolChange[] = [];
  for (const agentId of ids) {
    const toolsBefore = agentMcpTools(before, before.agentsById.get(agentId), known, pluginServers);
    const toolsAfter = agentMcpTools(after, after.agentsById.get(agentId), known, pluginServers);
    const gained = [...toolsAfter].filter((t) => !toolsBefore.has(t)).sort();
    const lost = [...toolsBefore].filter((t) => !toolsAfter.has(t)).sort();
    if (gained.length || lost.length) agents.push({ agentId, gained, lost });
  }
  return { serversAdded: servers.added, serversRemoved: servers.removed, serversChanged, agents };
}

/** The MCP tools (policy names, or `mcp:<server>:<pattern>` for a server not listed yet) an agent is offered. */
function agentMcpTools(
  snapshot: RuntimeSnapshot,
  agent: ResolvedAgent | undefined,
  known: KnownMcpTools,
  pluginServers: readonly McpServerSettings[],
): Set<string> {
  const tools = new Set<string>();
  if (!agent) return tools;
  const configured = snapshot.config.mcp.servers;
  for (const server of [...Object.values(configured), ...pluginServers.filter((s) => configured[s.name] === undefined)]) {
    if (!server.enabled) continue;
    const listed = known(server.name);
    if (listed?.length) {
      for (const tool of listed) {
        const name = mcpToolPolicyName(server.name, tool);
        if (isToolAllowed(agent, name)) tools.add(name);
      }
      continue;
    }
    for (const grant of mcpServerGrants(agent.tools, server.name)) tools.add(onServer(grant, server.name));
  }
  return tools;
}

/** A grant as it reads for one server: `mcp:*` and `mcp:fi*:read_*` on `files` are `mcp:files:*` and `mcp:files:read_*`. */
function onServer(grant: string, server: string): string {
  const rest = grant.slice(MCP_TOOL_PREFIX.length);
  const colon = rest.indexOf(':');
  return mcpToolPolicyName(server, colon < 0 ? '*' : rest.slice(colon + 1));
}

function changedKeys(a: McpServerSettings, b: McpServerSettings): string[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])] as Array<keyof McpServerSettings>;
  return keys.filter((k) => !isDeepStrictEqual(a[k], b[k])).sort();
}
