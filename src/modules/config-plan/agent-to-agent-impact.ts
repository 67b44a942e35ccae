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
  /** Null when one of the two agents is not configured before the change: the pair appears. */
  before: PairDecision | null;
  /** Null when one of the two agents is not configured after the change: the pair vanishes. */
  after: PairDecision | null;
}

/** The evaluator behind `/admin/policy/check`, over a given snapshot. */
export type PairCheck = (snapshot: RuntimeSnapshot, from: string, to: string) => Promise<PolicyCheckResultDto>;

/**
 * Every ordered pair of distinct agents whose outcome (allowed, or the refusing layer) differs between the two
 * configs, with the layer and rule of each side. A pair with an agent added or removed is listed when it is allowed
 * on the side where both agents exist (it appears or vanishes); refused there, nothing changes for anyone. Main
 * sessions stand for their agents: across agents the decision does not depend on which session asks (only
 * visibility, sandbox and tools.agentToAgent decide it). Pairs where only the rule's wording changed are left out.
 */
export async function agentToAgentImpact(
  before: RuntimeSnapshot,
  after: RuntimeSnapshot,
  check: PairCheck,
): Promise<AgentToAgentImpactEntry[]> {
  const agents = [...new Set([...before.config.agents, ...after.config.agents].map((a) => a.id))];
  const decide = async (snapshot: RuntimeSnapshot, from: string, to: string) =>
    snapshot.agentsById.has(from) && snapshot.agentsById.has(to) ? reduce(await check(snapshot, from, to)) : null;
  const entries: AgentToAgentImpactEntry[] = [];
  for (const from of agents) {
    for (const to of agents) {
      if (from === to) continue;
      const [was, now] = await Promise.all([decide(before, from, to), decide(after, from, to)]);
      if (!changed(was, now)) continue;
      entries.push({ from, to, before: was, after: now });
    }
  }
  return entries;
}

function changed(was: PairDecision | null, now: PairDecision | null): boolean {
  if (was && now) return was.allowed !== now.allowed || was.layer !== now.layer;
  return Boolean(was?.allowed || now?.allowed);
}

function reduce(decision: PolicyCheckResultDto): PairDecision {
  return { allowed: decision.allowed, layer: decision.layer, rule: decision.rule };
}
