import { compileAgentPattern } from '../../common/agent-pattern';
import type { ToolApprovalSettings } from '../config';

const compiled = new Map<string, (name: string) => boolean>();

/**
 * Whether a call of `tool` (the name `tools.allow` matches: `mcp:<server>:<tool>` for an MCP tool) waits for an
 * operator under the agent's `tools.requiresApproval`: an exact name, or a `*` pattern (`mcp:files:*`, `*`).
 */
export function requiresApproval(agent: { approvals: Pick<ToolApprovalSettings, 'tools'> }, tool: string): boolean {
  return agent.approvals.tools.some((pattern) => {
    let match = compiled.get(pattern);
    if (!match) compiled.set(pattern, (match = compileAgentPattern(pattern)));
    return match(tool);
  });
}
