import type { RuntimeSnapshot } from '../../config';
import type { PlanImpact } from '../config-plan.service';

/**
 * One line on what a revision changed, for the history list: the top-level sections whose content changed,
 * then each part of the impact that is not empty (agents, routes, agent-to-agent pairs, memory grants, A2A peers,
 * admin access, plugins, MCP servers and tools, budgets). Names only, never a value.
 */
export function impactSummary(before: RuntimeSnapshot, after: RuntimeSnapshot, impact: PlanImpact): string {
  const sections = [...new Set([...Object.keys(before.document), ...Object.keys(after.document)])].filter(
    (k) => JSON.stringify(before.document[k]) !== JSON.stringify(after.document[k]),
  );
  const parts = [sections.length ? `changed ${sections.join(', ')}` : 'no section changed'];
  if (impact.agents.added.length) parts.push(`agents added: ${impact.agents.added.join(', ')}`);
  if (impact.agents.removed.length) parts.push(`agents removed: ${impact.agents.removed.join(', ')}`);
  const routes = impact.routing.filter((r) => r.changed).length;
  if (routes) parts.push(`${routes} route${routes === 1 ? '' : 's'} answered by another agent or tier`);
  if (impact.agentToAgent.length) parts.push(`${impact.agentToAgent.length} agent-to-agent pair(s) change`);
  const { grantsAdded, grantsRemoved } = impact.memory;
  if (grantsAdded.length || grantsRemoved.length) parts.push(`memory grants +${grantsAdded.length} -${grantsRemoved.length}`);
  const a2a = impact.a2a;
  if (a2a.peersAdded.length) parts.push(`A2A peers added: ${a2a.peersAdded.join(', ')}`);
  if (a2a.peersRemoved.length) parts.push(`A2A peers removed: ${a2a.peersRemoved.join(', ')}`);
  if (a2a.tokensRotated.length) parts.push(`${a2a.tokensRotated.length} peer token(s) changed`);
  const admin = impact.admin;
  const adminChanges =
    admin.tokensAdded.length +
    admin.tokensRemoved.length +
    admin.tokensChanged.length +
    admin.ssoRoleMappingsAdded.length +
    admin.ssoRoleMappingsRemoved.length +
    admin.ssoRoleMappingsChanged.length +
    admin.sso.length;
  if (adminChanges) parts.push(`${adminChanges} admin access change(s)`);
  const plugins = impact.plugins;
  if (plugins.stateChanged.length) parts.push(`plugins ${plugins.stateChanged.map((p) => `${p.id} ${p.after ?? 'gone'}`).join(', ')}`);
  if (plugins.configChanged.length) parts.push(`plugin settings changed: ${plugins.configChanged.map((p) => p.id).join(', ')}`);
  const mcp = impact.mcp;
  if (mcp.serversAdded.length) parts.push(`MCP servers added: ${mcp.serversAdded.join(', ')}`);
  if (mcp.serversRemoved.length) parts.push(`MCP servers removed: ${mcp.serversRemoved.join(', ')}`);
  if (mcp.serversChanged.length) parts.push(`MCP servers changed: ${mcp.serversChanged.map((c) => c.name).join(', ')}`);
  if (mcp.agents.length) parts.push(`MCP tools change for ${mcp.agents.map((a) => a.agentId).join(', ')}`);
  const budgets = impact.budgets;
  if (budgets.added.length) parts.push(`budgets added: ${budgets.added.map((b) => b.name).join(', ')}`);
  if (budgets.removed.length) parts.push(`budgets removed: ${budgets.removed.map((b) => b.name).join(', ')}`);
  if (budgets.changed.length) parts.push(`budgets changed: ${budgets.changed.map((b) => b.name).join(', ')}`);
  return parts.join('; ');
}
