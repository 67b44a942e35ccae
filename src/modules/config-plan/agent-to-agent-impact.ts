import type { RuntimeSnapshot } from '../config';
import type { PolicyCheckResultDto } from '../session-policy';

/** The decision `/admin/policy/check` gives for a pair of main sessions, reduced to what the plan shows. */
export interface PairDecision {
  allowed: boolean;
  layer: 'visibility' | 'policy' | null;
  rule: string;
}

export interface AgentToAgentImpactEntry {
  from: string;
  to: string;
  before: PairDecision;
  after: PairDecision;
}

/** The evaluator behind `/admin/policy/check`, over a given snapshot. */
export type PairCheck = (snapshot: RuntimeSnapshot, from: string, to: string) => Promise<PolicyCheckResultDto>;

/**
 * Every ordered pair of distinct agents configured on both sides whose outcome (allowed, or the refusing
 * layer) differs between the two configs, with the layer and rule of each side. Main sessions stand for
 * their agents: across agents the decision does not depend on which session asks (only visibility, sandbox
 * and tools.agentToAgent decide it). Pairs where only the rule's wording changed are left out.
 */
export async function agentToAgentImpact(
  before: RuntimeSnapshot,
  after: RuntimeSnapshot,
  check: PairCheck,
): Promise<AgentToAgentImpactEntry[]> {
  const agents = before.config.agents.map((a) => a.id).filter((id) => after.agentsById.has(id));
  const entries: AgentToAgentImpactEntry[] = [];
  for (const from of agents) {
    for (const to of agents) {
      if (from === to) continue;
      const [was, now] = await Promise.all([check(before, from, to), check(after, from, to)]);
      if (was.allowed === now.allowed && was.layer === now.layer) continue;
      entries.push({ from, to, before: reduce(was), after: reduce(now) });
    }
  }
  return entries;
}

function reduce(decision: PolicyCheckResultDto): PairDecision {
  return { allowed: decision.allowed, layer: decision.layer, rule: decision.rule };
}
