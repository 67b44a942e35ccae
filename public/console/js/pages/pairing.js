// DM pairing: per chat channel, the one-time codes unknown senders were given (approve or deny them: operator) and the
// senders approved so far.
import { api, seg } from '../api.js';
import { actionButton, add, clear, errorBox, h, put, table, time } from '../dom.js';

const sender = (s) => [h('code', {}, s.senderId), s.senderName ? ` ${s.senderName}` : ''];

export async function pairingPage(ctx) {
  const note = h('div', { id: 'pairing-note' });
  const list = h('div', { id: 'pairing-list' });
  let last = null;
  const decide = async (channel, code, decision) => {
    clear(note);
    try {
      const { body: d } = await api(`/admin/pairing/${seg(channel)}/${seg(code)}/${decision}`, { method: 'POST' });
      add(
        note,
        h('p', { class: 'ok', id: 'pairing-decided' }, `${d.decision} ${d.senderName ?? d.senderId} (${d.senderId}) on ${d.channel}`),
      );
    } catch (err) {
      const box = errorBox(err);
      box.id = 'pairing-error';
      add(note, box);
    }
    await draw();
  };
  const actions = (p) =>
    ctx.can('operator')
      ? h(
          'span',
          { class: 'actions' },
          actionButton('Approve', () => decide(p.channel, p.code, 'approve'), { class: 'small primary', dataset: { action: 'approve' } }),
          ' ',
          actionButton('Deny', () => decide(p.channel, p.code, 'deny'), { class: 'small danger', dataset: { action: 'deny' } }),
        )
      : null;
  const channelBlock = (c) =>
    h(
      'section',
      { class: 'pairing', dataset: { channel: c.channel } },
      h('h2', {}, h('code', {}, c.channel)),
      h('h3', {}, `Waiting for approval (${c.pending.length})`),
      table(
        [
          ['Code', (p) => h('code', { class: 'code-value' }, p.code)],
          ['Account', (p) => h('code', {}, p.accountId)],
          ['Sender', sender],
          ['Asked', (p) => time(p.createdAt)],
          ['Expires', (p) => time(p.expiresAt)],
          ['', actions],
        ],
        c.pending,
        { empty: 'No code is waiting.', rowClass: () => 'pending-code' },
      ),
      h('h3', {}, `Approved senders (${c.approved.length})`),
      table(
        [
          ['Sender', sender],
          ['Account', (a) => h('code', {}, a.accountId)],
          ['Approved', (a) => time(a.approvedAt)],
        ],
        c.approved,
        { empty: 'Nobody approved yet.', rowClass: () => 'approved-sender' },
      ),
    );
  const draw = async () => {
    try {
      const { body } = await api('/admin/pairing');
      // Redrawn only when something changed, so a button is not replaced under the operator's click.
      const seen = JSON.stringify(body);
      if (seen === last) return;
      last = seen;
      put(
        list,
        body.channels.length
          ? body.channels.map(channelBlock)
          : h('p', { class: 'empty' }, 'No chat channel runs, so nobody can ask to pair.'),
      );
      for (const row of list.querySelectorAll('tr.pending-code')) row.dataset.code = row.querySelector('.code-value')?.textContent ?? '';
    } catch (err) {
      last = null;
      put(list, errorBox(err));
    }
  };
  add(
    ctx.main,
    h('h1', {}, 'Pairing'),
    h(
      'p',
      { class: 'muted' },
      'Under the pairing DM policy an unknown sender is given a one-time code (valid one hour, at most 3 waiting per channel); once approved, their next message reaches the agent. Refreshes every 5 s.',
    ),
    h(
      'div',
      { class: 'toolbar' },
      actionButton('Refresh', () => draw()),
    ),
    note,
    list,
  );
  await draw();
  ctx.every(5000, () => void draw());
}
