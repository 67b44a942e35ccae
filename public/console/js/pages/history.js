// Config history: every applied revision, what changed in it, and a rollback (admin) to an earlier one.
import { api, seg } from '../api.js';
import { actionButton, add, clear, codeBlock, errorBox, h, put, table, time } from '../dom.js';
import { appliedView, planView } from './plan-view.js';

export async function historyPage(ctx) {
  if (!ctx.can('admin')) {
    // Like the audit log: the history names who applied what.
    add(
      ctx.main,
      h('h1', {}, 'Config history'),
      h('p', { class: 'empty', id: 'history-denied' }, 'The config history is for the admin role.'),
    );
    return;
  }
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
      // Two clicks: the first shows the plan of going back (what would change), the second does it.
      if (!armed) {
        armed = true;
        put(note, await rollbackPlan(entry));
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
    (entry.files?.length ? entry.files : [{ path: 'openclaw.json', text: entry.document }]).map((file) => [
      h('h2', {}, h('code', {}, file.path)),
      codeBlock(typeof file.text === 'string' ? file.text : JSON.stringify(file.text, null, 2)),
    ]),
  );
}

/** The plan of restoring this revision's root file; a layout with $include files is restored whole, unplanned. */
async function rollbackPlan(entry) {
  if ((entry.files?.length ?? 1) > 1) {
    return h(
      'p',
      { class: 'muted' },
      'This revision has $include files: the plan preview covers only single-file configs. The rollback restores every file.',
    );
  }
  try {
    const { body: plan } = await api('/admin/config/plan', { method: 'POST', body: { document: entry.document } });
    // The recorded text shows literal secrets as [redacted], so the plan sees them as changed; the rollback itself
    // restores the file byte for byte, secrets included.
    const masked = String(entry.document).includes('[redacted]')
      ? h(
          'p',
          { class: 'pending', id: 'rollback-masked' },
          'This revision holds literal secrets, shown as [redacted]: the preview counts them as rotated, but the rollback restores them exactly as they were.',
        )
      : null;
    return h('div', { id: 'rollback-plan' }, h('h2', {}, 'Going back would change'), masked, planView(plan));
  } catch (err) {
    return errorBox(err);
  }
}
