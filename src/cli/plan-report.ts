import type { ConfigPlan, PlanBudget, PlanImpact } from '../modules/config-plan';

/**
 * The human form of a config plan: validity and revisions, issues, restarts, then only what changes in
 * each impact section (the `--json` form has every entry), then the diff.
 */
export function formatPlan(plan: ConfigPlan): string {
  const lines: string[] = [];
  const to = plan.valid ? `revision ${plan.revision} -> ${plan.candidateRevision}` : `revision ${plan.revision}`;
  lines.push(`${plan.valid ? 'valid' : 'INVALID'} (${to})`);
  for (const e of plan.errors) lines.push(`error: ${issue(e)}`);
  for (const w of plan.warnings) lines.push(`warning: ${issue(w)}`);
  if (plan.pendingRestart.length) lines.push(`needs a restart: ${plan.pendingRestart.join(', ')}`);
  if (plan.impact) lines.push(...impactLines(plan.impact));
  lines.push(plan.diff ? plan.diff.trimEnd() : 'diff: the file would not change');
  return `${lines.join('\n')}\n`;
}

function issue(i: { path: string; message: string }): string {
  return i.path ? `${i.path}: ${i.message}` : i.message;
}

function impactLines(impact: PlanImpact): string[] {
  const out: string[] = [];
  const section = (title: string, entries: string[]) =>
    out.push(`${title}:${entries.length ? '' : ' no change'}`, ...entries.map((e) => `  ${e}`));
  section('agents', [...impact.agents.added.map((a) => `+ ${a}`), ...impact.agents.removed.map((a) => `- ${a}`)]);
  section(
    'routing',
    impact.routing
      .filter((r) => r.changed)
      .map((r) => `${r.inbound ? JSON.stringify(r.inbound) : 'default route'}: ${route(r.before)} -> ${route(r.after)}`),
  );
  section(
    'agent-to-agent',
    impact.agentToAgent.map((p) =>
      !p.before
        ? `+ ${p.from} -> ${p.to}: ${decision(p.after)}`
        : !p.after
          ? `- ${p.from} -> ${p.to}: was ${decision(p.before)}`
          : `${p.from} -> ${p.to}: ${decision(p.before)} => ${decision(p.after)}`,
    ),
  );
  section('memory', [
    ...impact.memory.grantsAdded.map((g) => `+ ${g.agent} may search ${g.collection} (${g.path}${g.owner ? `, of ${g.owner}` : ''})`),
    ...impact.memory.grantsRemoved.map(
      (g) => `- ${g.agent} may no longer search ${g.collection} (${g.path}${g.owner ? `, of ${g.owner}` : ''})`,
    ),
  ]);
  const a2a = impact.a2a;
  section('a2a', [
    ...a2a.peersAdded.map((p) => `+ peer ${p}`),
    ...a2a.peersRemoved.map((p) => `- peer ${p}`),
    ...a2a.tokensRotated.map((t) => `peer ${t.peer}: ${t.field} ${t.change}`),
    ...(a2a.exposedAgents ? [`exposed agents: ${list(a2a.exposedAgents.before)} -> ${list(a2a.exposedAgents.after)}`] : []),
    ...a2a.limits.map((l) => `${l.key}: ${JSON.stringify(l.before)} -> ${JSON.stringify(l.after)}`),
  ]);
  const admin = impact.admin;
  section('admin', [
    ...admin.tokensAdded.map((t) => `+ token ${t.name} (${t.role})`),
    ...admin.tokensRemoved.map((t) => `- token ${t.name} (${t.role})`),
    ...admin.tokensChanged.map(
      (t) => `token ${t.name}: ${[t.role ? `role ${t.role.before} -> ${t.role.after}` : '', t.token ?? ''].filter(Boolean).join(', ')}`,
    ),
    ...admin.ssoRoleMappingsAdded.map((m) => `+ SSO group ${m.group} (${m.role})`),
    ...admin.ssoRoleMappingsRemoved.map((m) => `- SSO group ${m.group} (${m.role})`),
    ...admin.ssoRoleMappingsChanged.map((m) => `SSO group ${m.group}: ${m.before} -> ${m.after}`),
    ...admin.sso.map((c) => `${c.key}: ${JSON.stringify(c.before)} -> ${JSON.stringify(c.after)}`),
  ]);
  const plugins = impact.plugins;
  section('plugins', [
    ...plugins.stateChanged.map(
      (p) => `${p.id}: ${p.before ?? 'not found'} -> ${p.after ?? 'not found'}${p.reason ? ` (${p.reason})` : ''}`,
    ),
    ...plugins.configChanged.map((p) => `${p.id}: settings change${p.restartRequired ? ', restart required' : ''}`),
  ]);
  const mcp = impact.mcp;
  section('mcp', [
    ...mcp.serversAdded.map((s) => `+ server ${s}`),
    ...mcp.serversRemoved.map((s) => `- server ${s}`),
    ...mcp.serversChanged.map((s) => `server ${s.name}: ${s.keys.join(', ')} change (reconnects, no restart)`),
    ...mcp.agents.flatMap((a) => [
      ...(a.gained.length ? [`${a.agentId} gains ${a.gained.join(', ')}`] : []),
      ...(a.lost.length ? [`${a.agentId} loses ${a.lost.join(', ')}`] : []),
    ]),
  ]);
  const budgets = impact.budgets;
  section('budgets', [
    ...budgets.added.map((b) => `+ ${b.name}: ${budgetText(b)}`),
    ...budgets.removed.map((b) => `- ${b.name}: was ${budgetText(b)}`),
    ...budgets.changed.map(
      (c) =>
        `${c.name}: ${c.keys.length ? `${budgetText(c.before)} -> ${budgetText(c.after)}` : `now ${budgetText(c.after)}`}` +
        [...c.appliesToAdded.map((id) => ` +${id}`), ...c.appliesToRemoved.map((id) => ` -${id}`)].join(''),
    ),
    ...budgets.targets.map(
      (t) =>
        `${t.scope} ${t.id}: ` +
        [
          t.gained.length ? `gains ${t.gained.join(', ')}` : '',
          t.lost.length ? `loses ${t.lost.join(', ')}` : '',
          t.changed.length ? `changed ${t.changed.join(', ')}` : '',
        ]
          .filter(Boolean)
          .join('; '),
    ),
  ]);
  section(
    'approvals',
    impact.approvals.map((a) =>
      [
        a.gained.length ? `${a.agentId} asks an operator before ${a.gained.join(', ')}` : '',
        a.lost.length ? `${a.agentId} no longer asks before ${a.lost.join(', ')}` : '',
        a.timeoutMs ? `${a.agentId} waits ${a.timeoutMs.after} ms (was ${a.timeoutMs.before})` : '',
      ]
        .filter(Boolean)
        .join('; '),
    ),
  );
  return out;
}

/** `1000 tokens, 5 cost per day for agent support-* (support-eu, support-us), soft at 80%` */
function budgetText(b: PlanBudget): string {
  const limits = [b.tokens === null ? '' : `${b.tokens} tokens`, b.cost === null ? '' : `${b.cost} cost`].filter(Boolean).join(', ');
  const window = b.window === 'run' ? 'per run' : /^\d+h$/.test(b.window) ? `per ${b.window.slice(0, -1)} h` : `per ${b.window}`;
  const reach = b.appliesTo === null ? '' : b.appliesTo.length ? ` (${b.appliesTo.join(', ')})` : ' (nothing configured matches)';
  return `${limits} ${window} for ${b.scope} ${b.pattern}${reach}${b.softAt === null ? '' : `, soft at ${Math.round(b.softAt * 100)}%`}`;
}

function route(o: { agentId: string; matchedBy: { tier: string; bindingIndex: number | null } }): string {
  return `${o.agentId} (${o.matchedBy.tier}${o.matchedBy.bindingIndex === null ? '' : ` #${o.matchedBy.bindingIndex}`})`;
}

function decision(d: { allowed: boolean; layer: string | null; rule: string } | null): string {
  if (!d) return 'no such agent';
  return d.allowed ? `allowed (${d.rule})` : `denied by ${d.layer} (${d.rule})`;
}

function list(agents: string[] | null): string {
  return agents ? `[${agents.join(', ')}]` : 'all';
}
