// A config plan (POST /admin/config/plan) as the operator reads it: valid or why not, what a restart is needed
// for, the agents added and removed, the impact on routing, agent-to-agent access, memory, A2A and admin access, and the file diff.
import { codeBlock, h, issueList } from '../dom.js';

const decision = (d) => `${d.allowed ? 'allowed' : 'denied'}${d.layer ? ` (${d.layer})` : ''}: ${d.rule}`;
const routeText = (r) => `${r.agentId} by ${r.matchedBy.tier}${r.matchedBy.bindingIndex === null ? '' : ` #${r.matchedBy.bindingIndex}`}`;

function section(title, items) {
  const list = items.filter(Boolean);
  if (!list.length) return null;
  return h(
    'section',
    { class: 'impact-part' },
    h('h3', {}, title),
    h(
      'ul',
      {},
      list.map((i) => h('li', {}, i)),
    ),
  );
}

/** The impact lines, one section per area; "no impact" when nothing changes. */
export function impactView(impact) {
  const routing = impact.routing.filter((r) => r.changed);
  const a2a = impact.a2a;
  const admin = impact.admin;
  const parts = [
    section('Agents', [...impact.agents.added.map((a) => `+ agent ${a}`), ...impact.agents.removed.map((a) => `− agent ${a}`)]),
    section(
      'Routing',
      routing.map((r) => `${r.inbound ? JSON.stringify(r.inbound) : 'default route'}: ${routeText(r.before)} → ${routeText(r.after)}`),
    ),
    section(
      'Agent-to-agent',
      impact.agentToAgent.map((p) =>
        !p.before
          ? `+ ${p.from} → ${p.to}: ${decision(p.after)}`
          : !p.after
            ? `− ${p.from} → ${p.to}: was ${decision(p.before)}`
            : `${p.from} → ${p.to}: ${decision(p.before)} ⇒ ${decision(p.after)}`,
      ),
    ),
    section('Memory', [
      ...impact.memory.grantsAdded.map((g) => `+ ${g.agent} may search ${g.collection} (${g.path})`),
      ...impact.memory.grantsRemoved.map((g) => `− ${g.agent} no longer searches ${g.collection} (${g.path})`),
    ]),
    section('A2A', [
      ...a2a.peersAdded.map((p) => `+ peer ${p}`),
      ...a2a.peersRemoved.map((p) => `− peer ${p}`),
      ...a2a.tokensRotated.map((t) => `peer ${t.peer} ${t.field} ${t.change}`),
      a2a.exposedAgents ? `exposed agents: +[${a2a.exposedAgents.added.join(', ')}] −[${a2a.exposedAgents.removed.join(', ')}]` : null,
      ...a2a.limits.map((l) => `${l.key}: ${JSON.stringify(l.before)} → ${JSON.stringify(l.after)}`),
    ]),
    section('Admin access', [
      ...admin.tokensAdded.map((t) => `+ token ${t.name} (${t.role})`),
      ...admin.tokensRemoved.map((t) => `− token ${t.name} (${t.role})`),
      ...admin.tokensChanged.map(
        (t) => `token ${t.name}${t.role ? ` ${t.role.before} → ${t.role.after}` : ''}${t.token ? ' rotated' : ''}`,
      ),
      ...admin.ssoRoleMappingsAdded.map((m) => `+ SSO group ${m.group} → ${m.role}`),
      ...admin.ssoRoleMappingsRemoved.map((m) => `− SSO group ${m.group} (${m.role})`),
      ...admin.ssoRoleMappingsChanged.map((m) => `SSO group ${m.group}: ${m.before} → ${m.after}`),
      ...admin.sso.map((l) => `${l.key}: ${JSON.stringify(l.before)} → ${JSON.stringify(l.after)}`),
    ]),
  ].filter(Boolean);
  return h(
    'div',
    { class: 'impact', id: 'plan-impact' },
    parts.length ? parts : h('p', { class: 'empty' }, 'No impact on routing, access, memory, A2A or admin access.'),
  );
}

export function planView(plan) {
  return h(
    'div',
    { class: `plan ${plan.valid ? 'valid' : 'invalid'}`, id: 'plan' },
    h(
      'p',
      { class: plan.valid ? 'ok' : 'error' },
      plan.valid ? `Valid: revision ${plan.revision} → ${plan.candidateRevision}` : 'Invalid: nothing can be applied.',
    ),
    issueList(plan.errors, 'issues errors'),
    issueList(plan.warnings, 'issues warnings'),
    plan.pendingRestart.length ? h('p', { class: 'pending' }, 'Needs a restart to take effect: ', plan.pendingRestart.join(', ')) : null,
    plan.impact ? [h('h2', {}, 'Impact'), impactView(plan.impact)] : null,
    h('h2', {}, 'Diff of the file'),
    plan.diff ? codeBlock(plan.diff, { diff: true }) : h('p', { class: 'empty' }, 'The file would not change.'),
  );
}

/** The answer of an applied change (PATCH or rollback). */
export function appliedView(result) {
  return h(
    'div',
    { class: 'applied ok', id: 'applied' },
    h('p', {}, 'Applied: revision ', h('code', { id: 'applied-revision' }, result.revision)),
    issueList(result.warnings ?? [], 'issues warnings'),
    result.pendingRestart?.length ? h('p', { class: 'pending' }, 'Waiting for a restart: ', result.pendingRestart.join(', ')) : null,
    result.impact ? impactView(result.impact) : null,
  );
}
