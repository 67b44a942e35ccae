// Sessions: the list (server filters agent/label/activity, plus a search over the loaded keys) and one session's
// history, where every agent-to-agent step shows where it came from (its provenance).
import { api, seg } from '../api.js';
import { actionButton, add, codeBlock, errorBox, h, put, table, time } from '../dom.js';

export async function sessionsPage(ctx) {
  if (ctx.params.length) return sessionDetail(ctx, ctx.params.join('/'));
  const { body: agents } = await api('/admin/agents');
  const agent = h(
    'select',
    { id: 'sessions-agent' },
    h('option', { value: '' }, 'all agents'),
    agents.map((a) => h('option', { value: a.id }, a.id)),
  );
  const label = h('input', { id: 'sessions-label', placeholder: 'label', size: 12 });
  const active = h('input', { id: 'sessions-active', type: 'number', min: 1, placeholder: 'active in last N min', size: 8 });
  const search = h('input', { id: 'sessions-search', type: 'search', placeholder: 'search keys…', size: 24 });
  const list = h('div', { id: 'sessions-list' });
  const more = h('div');
  let rows = [];
  let cursor;

  const query = () => {
    const q = new URLSearchParams({ limit: '100' });
    if (agent.value) q.set('agentId', agent.value);
    if (label.value.trim()) q.set('label', label.value.trim());
    if (active.value) q.set('activeMinutes', active.value);
    if (cursor) q.set('cursor', cursor);
    return q;
  };
  const render = () => {
    const needle = search.value.trim().toLowerCase();
    const shown = needle ? rows.filter((s) => `${s.sessionKey} ${s.label ?? ''}`.toLowerCase().includes(needle)) : rows;
    put(
      list,
      table(
        [
          ['Session', (s) => h('a', { href: `#/sessions/${seg(s.sessionKey)}` }, s.sessionKey)],
          ['Agent', (s) => h('code', {}, s.agentId)],
          ['Label', (s) => s.label ?? ''],
          ['Spawned by', (s) => (s.spawnedBy ? h('a', { href: `#/sessions/${seg(s.spawnedBy)}` }, s.spawnedBy) : '')],
          ['Updated', (s) => time(s.updatedAt)],
        ],
        shown,
        { empty: 'No sessions match.' },
      ),
    );
  };
  const load = async (append = false) => {
    if (!append) {
      rows = [];
      cursor = undefined;
    }
    try {
      const { body } = await api(`/admin/sessions?${query()}`);
      rows = rows.concat(body.sessions);
      cursor = body.nextCursor;
      render();
      put(more, cursor ? actionButton('Load more', () => load(true)) : null);
    } catch (err) {
      put(list, errorBox(err));
    }
  };
  for (const el of [agent, label, active]) el.addEventListener('change', () => void load());
  search.addEventListener('input', render);
  add(ctx.main, h('h1', {}, 'Sessions'), h('div', { class: 'toolbar filters' }, agent, label, active, search), list, more);
  await load();
}

function provenanceOf(line) {
  const p = line.provenance;
  if (!p) return null;
  return h(
    'div',
    { class: 'provenance' },
    'from ',
    h('a', { href: `#/sessions/${seg(p.sourceSessionKey)}` }, p.sourceSessionKey),
    ` via ${p.sourceTool}`,
    p.sourceChannel ? ` (${p.sourceChannel})` : '',
    p.hop !== undefined ? `, hop ${p.hop}` : '',
    p.chainId ? h('span', { class: 'muted' }, ` chain ${p.chainId}`) : '',
    p.traceparent ? h('span', { class: 'muted' }, ` trace ${p.traceparent}`) : '',
  );
}

async function sessionDetail(ctx, key) {
  const tools = h('input', { type: 'checkbox', id: 'history-tools' });
  const lines = h('div', { id: 'history' });
  const { body: entry } = await api(`/admin/sessions/${seg(key)}`);
  const draw = async () => {
    try {
      const { body } = await api(`/admin/sessions/${seg(key)}/history?limit=200&includeTools=${tools.checked}`);
      const steps = body.lines.filter((l) => l.provenance).length;
      put(
        lines,
        h('p', { class: 'muted' }, `${body.lines.length} lines, ${steps} agent-to-agent steps`),
        body.warnings.length
          ? h(
              'ul',
              { class: 'issues warnings' },
              body.warnings.map((w) => h('li', {}, w)),
            )
          : null,
        h(
          'ol',
          { class: 'transcript' },
          body.lines.map((l) =>
            h(
              'li',
              { class: `line role-${l.role}${l.provenance ? ' step' : ''}` },
              h(
                'div',
                { class: 'line-head' },
                h('strong', {}, l.role),
                ' ',
                time(l.ts),
                l.runId ? h('a', { class: 'small run-link', href: `#/runs/${seg(l.runId)}` }, ` run ${l.runId}`) : '',
              ),
              provenanceOf(l),
              h('div', { class: 'text' }, l.text),
              l.toolCalls?.length ? codeBlock(JSON.stringify(l.toolCalls, null, 2)) : null,
            ),
          ),
        ),
      );
    } catch (err) {
      put(lines, errorBox(err));
    }
  };
  tools.addEventListener('change', () => void draw());
  add(
    ctx.main,
    h('p', {}, h('a', { href: '#/sessions' }, '← all sessions')),
    h('h1', {}, 'Session ', h('code', {}, entry.sessionKey)),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Agent'),
      h('dd', {}, entry.agentId),
      h('dt', {}, 'Label'),
      h('dd', {}, entry.label ?? '—'),
      h('dt', {}, 'Spawned by'),
      h('dd', {}, entry.spawnedBy ? h('a', { href: `#/sessions/${seg(entry.spawnedBy)}` }, entry.spawnedBy) : '—'),
      h('dt', {}, 'Created'),
      h('dd', {}, time(entry.createdAt)),
      h('dt', {}, 'Delivery'),
      h('dd', {}, entry.deliveryContext ? JSON.stringify(entry.deliveryContext) : '—'),
    ),
    h('div', { class: 'toolbar' }, h('label', {}, tools, ' include tool lines'), actionButton('Refresh', draw)),
    lines,
  );
  await draw();
}
