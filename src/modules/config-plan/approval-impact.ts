import type { RuntimeSnapshot } from '../config';

/** An agent whose tool approvals change (docs/approvals.md): patterns it gains and loses, and its new timeout. */
export interface ApprovalImpactEntry {
  agentId: string;
  /** `tools.requiresApproval` entries (groups expanded) only after the change: those calls start waiting for an operator. */
  gained: string[];
  /** Entries only before the change: those calls stop waiting. */
  lost: string[];
  /** `tools.approvalTimeoutMs` when it changes. */
  timeoutMs?: { before: number; after: number };
}

/**
 * Which agents' calls start or stop waiting for an operator, kept and added agents alike (a removed agent is in
 * `agents.removed`). A new agent with no approvals is not listed: nothing about it waits.
 */
export function approvalImpact(before: RuntimeSnapshot, after: RuntimeSnapshot): ApprovalImpactEntry[] {
  const entries: ApprovalImpactEntry[] = [];
  for (const [agentId, agent] of after.agentsById) {
    const was = before.agentsById.get(agentId)?.approvals;
    const now = agent.approvals;
    const had = new Set(was?.tools ?? []);
    const has = new Set(now.tools);
    const gained = now.tools.filter((t) => !had.has(t));
    const lost = [...had].filter((t) => !has.has(t));
    const timeoutChanged = was !== undefined && was.timeoutMs !== now.timeoutMs && (had.size > 0 || has.size > 0);
    if (!gained.length && !lost.length && !timeoutChanged) continue;
    entries.push({
      agentId,
      gained,
      lost,
      ...(timeoutChanged ? { timeoutMs: { before: was.timeoutMs, after: now.timeoutMs } } : {}),
    });
  }
  return entries;
}
