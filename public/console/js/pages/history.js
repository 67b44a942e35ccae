// Config history: every applied revision, what changed in it, and a rollback (admin) to an earlier one.
import { api, seg } from '../api.js';
import { actionButton, add, clear, codeBlock, errorBox, h, put, table, time } from '../dom.js';
import { appliedView } from './plan-view.js';

export async function historyPage(ctx) {
  if (ctx.params.length) return revisionDetail(ctx, ctx.params[0]);
  const list = h('div', { id: 'history-list' });
  const more = h('div');
  let items = [];
  const load = async (cursor) => {
    try {
      const { body } = await api(`/admin/config/history${cursor ? `?cursor=${seg(cursor)}` : ''}`);
      items = cursor ? items.concat(body.items) : body.items;
      put(
        list,
        table(
          [
            ['Revision', (i) => h('a', { href: `#/history/${seg(i.revision)}` }, h('code', {}, i.revision))],
            ['Applied', (i) => time(i.appliedAt)],
            ['Source', (i) => i.source],
            ['By', (i) => i.subject ?? ''],
            ['Summary', (i) => i.summary ?? ''],
          ],
          items,
          { empty: 'No applied revisions recorded yet.' },
        ),
      );
      put(more, body.nextCursor ? actionButton('Older', () => load(body.nextCursor)) : null);
    } catch (err) {
      if (err.status === 404 && !cursor) {
        put(
          list,
          h(
            'p',
            { class: 'placeholder', id: 'history-missing' },
            'This gateway keeps no config history (GET /admin/config/history answered 404).',
          ),
        );
      } else put(list, errorBox(err));
    }
  };
  add(ctx.main, h('h1', {}, 'Config history'), list, more);
  await load();
}

async function revisionDetail(ctx, revision) {
  const note = h('div', { id: 'rollback-note' });
  const { body: entry } = await api(`/admin/config/history/${seg(revision)}`);
  const { body: status } = await api('/admin/config/status');
  const current = status.revision === revision;
  let armed = false;
  const rollback = actionButton(
    `Roll back to ${revision}`,
    async () => {
      // Two clicks: the first says what will happen, the second does it.
      if (!armed) {
        armed = true;
        rollback.textContent = `Confirm: make ${revision} current again (serving ${status.revision})`;
        return;
      }
      clear(note);
      try {
        const { body } = await api('/admin/config/rollback', {
          method: 'POST',
          body: { revision },
          headers: { 'If-Match': `"${status.revision}"` },
        });
        add(note, appliedView(body));
        rollback.remove();
      } catch (err) {
        add(note, errorBox(err));
      }
    },
    { id: 'rollback', class: 'danger' },
  );
  add(
    ctx.main,
    h('p', {}, h('a', { href: '#/history' }, '← history')),
    h('h1', {}, 'Revision ', h('code', {}, revision)),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Applied'),
      h('dd', {}, time(entry.appliedAt)),
      h('dt', {}, 'Source'),
      h('dd', {}, entry.source ?? '—'),
      h('dt', {}, 'By'),
      h('dd', {}, entry.subject ?? '—'),
      h('dt', {}, 'Summary'),
      h('dd', {}, entry.summary ?? '—'),
    ),
    ctx.can('admin') && !current ? h('div', { class: 'toolbar' }, rollback) : null,
    current ? h('p', { class: 'muted' }, 'This is the revision being served.') : null,
    note,
    h('h2', {}, 'What changed'),
    entry.diff ? codeBlock(String(entry.diff), { diff: true }) : h('p', { class: 'empty' }, 'No diff recorded.'),
    h('h2', {}, 'Document'),
    codeBlock(typeof entry.document === 'string' ? entry.document : JSON.stringify(entry.document, null, 2)),
  );
}
