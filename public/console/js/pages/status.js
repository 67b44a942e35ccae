// Status: the served revision, the last rejected edit with its errors, warnings, keys waiting for a restart.
import { api } from '../api.js';
import { actionButton, add, clear, errorBox, h, issueList, put, time } from '../dom.js';

export async function statusPage(ctx) {
  const body = h('div', { id: 'status-body' });
  const note = h('div', { class: 'note' });
  add(
    ctx.main,
    h('h1', {}, 'Status'),
    h(
      'div',
      { class: 'toolbar' },
      actionButton('Refresh', () => draw()),
      ctx.can('operator')
        ? actionButton('Reload openclaw.json now', async () => {
            clear(note);
            try {
              const { body: outcome } = await api('/admin/config/reload', { method: 'POST' });
              add(note, h('p', { class: 'ok' }, `Reload: ${outcome.status}, revision ${outcome.revision}`));
            } catch (err) {
              add(note, errorBox(err));
            }
            await draw();
          })
        : null,
    ),
    note,
    body,
  );
  async function draw() {
    const { body: s } = await api('/admin/config/status');
    put(
      body,
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, 'Revision'),
        h('dd', {}, h('code', { id: 'revision' }, s.revision)),
        h('dt', {}, 'Loaded'),
        h('dd', {}, time(s.loadedAt)),
        h('dt', {}, 'Config file'),
        h('dd', {}, h('code', {}, s.configPath)),
        h('dt', {}, 'Files read'),
        h(
          'dd',
          {},
          s.files.map((f) => h('code', { class: 'block' }, f)),
        ),
        h('dt', {}, 'Reload mode'),
        h('dd', {}, s.reloadMode),
      ),
      h('h2', {}, 'Pending restart'),
      s.pendingRestart.length
        ? h(
            'ul',
            { class: 'pending' },
            s.pendingRestart.map((k) => h('li', {}, h('code', {}, k))),
          )
        : h('p', { class: 'empty' }, 'Nothing waits for a restart.'),
      h('h2', {}, 'Last rejected edit'),
      s.lastError
        ? h(
            'div',
            { class: 'rejected' },
            h('p', {}, 'Rejected ', time(s.lastError.at), '; the previous revision keeps serving.'),
            issueList(s.lastError.errors, 'issues errors'),
          )
        : h('p', { class: 'empty' }, 'No rejected edit since the last applied one.'),
      h('h2', {}, `Warnings (${s.warnings.length})`),
      issueList(s.warnings, 'issues warnings') ?? h('p', { class: 'empty' }, 'No warnings.'),
    );
  }
  await draw();
  ctx.every(5000, () => void draw().catch(() => undefined));
}
