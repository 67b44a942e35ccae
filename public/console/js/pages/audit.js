// The audit log (admin only): admin writes and denied requests, newest first, a page at a time.
import { api } from '../api.js';
import { actionButton, add, errorBox, h, put, table, time } from '../dom.js';

export async function auditPage(ctx) {
  add(ctx.main, h('h1', {}, 'Audit log'));
  if (!ctx.can('admin')) {
    add(ctx.main, h('p', { class: 'empty', id: 'audit-denied' }, 'The audit log is for the admin role (it says who did what from where).'));
    return;
  }
  const list = h('div', { id: 'audit-list' });
  const more = h('div');
  let entries = [];
  const load = async (before) => {
    try {
      const { body } = await api(`/admin/audit?limit=50${before !== undefined ? `&before=${before}` : ''}`);
      entries = before !== undefined ? entries.concat(body.entries) : body.entries;
      put(
        list,
        table(
          [
            ['Time', (e) => time(e.ts)],
            ['Who', (e) => e.subject],
            ['Role', (e) => e.role],
            ['From', (e) => e.ip ?? ''],
            ['Request', (e) => h('code', {}, `${e.method} ${e.path}`)],
            ['Status', (e) => e.status],
            ['Revision', (e) => h('code', { class: 'small' }, e.revision ?? '')],
          ],
          entries,
          { empty: 'Nothing recorded yet.', rowClass: (e) => (e.status >= 400 ? 'denied' : '') },
        ),
      );
      put(more, body.next !== null && body.next !== undefined ? actionButton('Older', () => load(body.next)) : null);
    } catch (err) {
      put(list, errorBox(err));
    }
  };
  add(
    ctx.main,
    h(
      'div',
      { class: 'toolbar' },
      actionButton('Refresh', () => load()),
    ),
    list,
    more,
  );
  await load();
}
