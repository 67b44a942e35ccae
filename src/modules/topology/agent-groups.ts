/**
 * Agents that the picture can draw as one box: every pair inside a group has the same agent-to-agent status
 * (`allowed`, `allowed added`, …), and every member has the same status towards each agent outside the group.
 * Such a group is drawn as a cluster labelled with its status instead of n·(n−1) arrows, and its arrows to an
 * outside agent (or to another group, when they all agree) as one arrow. Groups are found greedily in config
 * order; a status of '' means no edge, and never forms a group.
 */
export interface AgentGroup {
  members: string[];
  status: string;
}

export type PairStatus = (from: string, to: string) => string;

export function agentGroups(agents: readonly string[], status: PairStatus): AgentGroup[] {
  const groups: AgentGroup[] = [];
  const grouped = new Set<string>();
  for (const a of agents) {
    if (grouped.has(a)) continue;
    const group: AgentGroup = { members: [a], status: '' };
    for (const b of agents) {
      if (b === a || grouped.has(b)) continue;
      const inner = status(a, b);
      if (inner === '' || status(b, a) !== inner || (group.status !== '' && inner !== group.status)) continue;
      if (!fits(group, b, inner, agents, status)) continue;
      group.members.push(b);
      group.status = inner;
    }
    if (group.members.length < 2) continue;
    for (const m of group.members) grouped.add(m);
    groups.push(group);
  }
  return groups;
}

/** `candidate` joins when it has the group's status with every member both ways and the same as them with everyone else. */
function fits(group: AgentGroup, candidate: string, inner: string, agents: readonly string[], status: PairStatus): boolean {
  const [first] = group.members;
  for (const m of group.members) {
    if (m !== first && (status(m, candidate) !== inner || status(candidate, m) !== inner)) return false;
  }
  for (const t of agents) {
    if (t === candidate || group.members.includes(t)) continue;
    if (status(candidate, t) !== status(first, t) || status(t, candidate) !== status(t, first)) return false;
  }
  return true;
}
