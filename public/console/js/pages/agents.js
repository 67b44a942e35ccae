// Agents and bindings: what each agent is, the bindings in config order, and each agent's memory with a
// reindex (operator) that shows its progress while it runs.
import { api, seg } from '../api.js';
import { actionButton, add, errorBox, h, put, table, time } from '../dom.js';

const matchText = (m) =>
  [
    `channel ${m.channel}`,
    m.accountId ? `account ${m.accountId}` : null,
    m.peer ? `peer ${m.peer.kind}:${m.peer.id}` : null,
    m.guildId ? `guild ${m.guildId}` : null,
    m.teamId ? `team ${m.teamId}` : null,
  ]
    .filter(Boolean)
    .join(', ');

export async function agentsPage(ctx) {
  const [{ body: agents }, { body: bindings }] = await Promise.all([api('/admin/agents'), api('/admin/bindings')]);
  add(
    ctx.main,
    h('h1', {}, `Agents (${agents.length})`),
    table(
      [
        ['Id', (a) => h('code', {}, a.id)],
        ['Name', (a) => [a.identity?.emoji ? `${a.identity.emoji} ` : '', a.identity?.name ?? a.name ?? '']],
        ['Model', (a) => h('code', {}, a.model)],
        ['Default', (a) => (a.isDefault ? 'yes' : '')],
        ['Sandbox', (a) => a.sandbox?.mode ?? ''],
        ['Bindings', (a) => a.bindings.length],
        ['Workspace', (a) => h('code', { class: 'small' }, a.workspace)],
      ],
      agents,
      { empty: 'No agents configured.' },
    ),
    h('h2', {}, `Bindings (${bindings.length}, in config order)`),
    table(
      [
        ['#', (b) => b.index],
        ['Agent', (b) => h('code', {}, b.agentId)],
        ['Match', (b) => matchText(b.match)],
      ],
      bindings,
      { empty: 'No bindings: every message goes to the default agent.' },
    ),
    h('h2', {}, 'Memory'),
    ...agents.map((a) => memoryBlock(ctx, a.id)),
  );
}

function memoryBlock(ctx, agentId) {
  const body = h('div', { class: 'memory-body' }, h('p', { class: 'muted' }, 'loading…'));
  const progress = h('div', { class: 'progress', hidden: true });
  const draw = async () => {
    try {
      const { body: m } = await api(`/admin/agents/${seg(agentId)}/memory/collections`);
      put(
        body,
        h(
          'p',
          { class: 'muted' },
          `backend ${m.backend}, embeddings ${m.embeddings.provider}`,
          m.embeddings.lastError ? ` — ${m.embeddings.lastError}` : '',
        ),
        table(
          [
            ['Collection', (c) => h('code', {}, c.name)],
            ['Files', (c) => c.files],
            ['Chunks', (c) => c.chunks],
            ['Embedded', (c) => c.embedded],
            ['Pending', (c) => c.pending],
            ['Indexed', (c) => time(c.lastIndexedAt)],
          ],
          m.collections,
          { empty: 'No memory collections.' },
        ),
      );
      return m;
    } catch (err) {
      put(body, errorBox(err));
      return null;
    }
  };
  const reindex = async () => {
    // The reindex answers when it is complete; meanwhile the collections' counts show how far it got.
    progress.hidden = false;
    const started = Date.now();
    const bar = h('progress', { max: 1, value: 0 });
    const label = h('span', {}, 'reindexing…');
    put(progress, bar, ' ', label);
    const poll = setInterval(async () => {
      const m = await draw();
      if (!m) return;
      const chunks = m.collections.reduce((n, c) => n + c.chunks, 0);
      const embedded = m.collections.reduce((n, c) => n + c.embedded, 0);
      bar.max = Math.max(chunks, 1);
      bar.value = embedded;
      label.textContent = `reindexing… ${embedded}/${chunks} chunks embedded, ${Math.round((Date.now() - started) / 1000)} s`;
    }, 500);
    try {
      const { body: r } = await api(`/admin/agents/${seg(agentId)}/memory/reindex`, { method: 'POST' });
      bar.max = 1;
      bar.value = 1;
      label.textContent = `done: ${r.indexed} files indexed, ${r.unchanged} unchanged, ${r.removed} removed, ${r.chunks} chunks in ${r.durationMs} ms`;
    } catch (err) {
      put(progress, errorBox(err));
    } finally {
      clearInterval(poll);
      await draw();
    }
  };
  void draw();
  return h(
    'section',
    { class: 'memory', dataset: { agent: agentId } },
    h('h3', {}, agentId, ' ', ctx.can('operator') ? actionButton('Reindex', reindex, { class: 'small' }) : null),
    progress,
    body,
  );
}
