import { mcpServerGrants } from '../../../common/mcp-tool-policy';
import type { ResolvedAgent } from '../../config';

/**
 * Whether an agent's tool policy grants it some tool of `server`: an `mcp:` entry of its `tools.allow` names the
 * server (`mcp:files:*`, `mcp:*`, `mcp:fi*:read`) and its `tools.deny` takes neither every tool (`*`) nor every tool
 * of the server. A run of such an agent starts a lazy server, `/admin/mcp` lists it among the server's agents, and the
 * topology draws its edge (the same rule, `mcpServerGrants`); a `tools.deny` entry may still take single tools away.
 */
export function agentMayUseServer(agent: Pick<ResolvedAgent, 'tools'>, server: string): boolean {
  return mcpServerGrants(agent.tools, server).length > 0;
}
