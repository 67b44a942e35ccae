import { isMcpToolEntry, mcpEntryMatches, MCP_TOOL_PREFIX } from '../../../common/mcp-tool-policy';
import type { ResolvedAgent } from '../../config';

/**
 * Whether an agent's tool policy grants it some tool of `server`: an `mcp:` entry of its `tools.allow` names the
 * server (`mcp:files:*`, `mcp:*`, `mcp:fi*:read`) and its `tools.deny` is not `*`. A run of such an agent starts a lazy
 * server, and `/admin/mcp` lists it among the server's agents; a `tools.deny` entry may still take single tools away.
 */
export function agentMayUseServer(agent: Pick<ResolvedAgent, 'tools'>, server: string): boolean {
  if (agent.tools.deny.includes('*')) return false;
  return agent.tools.allow.some((entry) => isMcpToolEntry(entry) && grantsServer(entry, server));
}

/** Whether an allow entry may match some tool of `server` (`mcp:files:*`, `mcp:*`, `mcp:fi*:read`). */
function grantsServer(entry: string, server: string): boolean {
  const rest = entry.slice(MCP_TOOL_PREFIX.length);
  const colon = rest.indexOf(':');
  const serverPart = colon < 0 ? rest : rest.slice(0, colon);
  if (!serverPart.includes('*')) return serverPart === server;
  return colon < 0 || mcpEntryMatches(`${MCP_TOOL_PREFIX}${serverPart}`, `${MCP_TOOL_PREFIX}${server}`);
}
