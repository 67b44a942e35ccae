// Channels: each channel's life (the plugin's channels are started, failed and retried by the gateway) and, per bot
// account, the state the channel last reported with the platform's error, messages in and out and delivery failures.
import { api } from '../api.js';
import { actionButton, add, errorBox, h, put, table } from '../dom.js';

const stateText = (state, id) => h('span', { class: `state channel-${state}`, id }, state);

function channelBlock(c) {
  const facts = [
    `plugin ${c.plugin}`,
    c.enabled ? 'enabled' : 'not enabled',
    c.failures ? `${c.failures} failed start${c.failures === 1 ? '' : 's'} in a row` : null,
    c.restarts ? `${c.restarts} restart${c.restarts === 1 ? '' : 's'}` : null,
  ].filter(Boolean);
  return h(
    'section',
    { class: 'channel', dataset: { channel: c.id } },
    h('h2', {}, h('code', {}, c.id), ' ', stateText(c.state)),
    h('p', { class: 'muted' }, facts.join(' · ')),
    c.error ? h('p', { class: 'error channel-error' }, c.error) : null,
    c.state === 'core'
      ? h('p', { class: 'empty' }, 'Served by the gateway itself: no accounts to connect.')
      : table(
          [
            ['Account', (a) => h('code', {}, a.accountId)],
            ['State', (a) => [stateText(a.state), a.error ? h('div', { class: 'small error' }, a.error) : null]],
            ['In', (a) => a.messagesIn],
            ['Out', (a) => a.messagesOut],
            ['Delivery failures', (a) => h('span', { class: a.deliveryFailures ? 'error' : '' }, a.deliveryFailures)],
            ['Reconnects', (a) => a.reconnects],
            ['Last ignored', (a) => (a.lastIgnored ? h('span', { class: 'small muted' }, a.lastIgnored) : '')],
          ],
          c.accounts,
          { empty: 'No account reported yet.', rowClass: (a) => `account-${a.state}` },
        ),
  );
}

export async function channelsPage(ctx) {
  const list = h('div', { id: 'channels-list' });
  let last = null;
  const draw = async () => {
    try {
      const { body } = await api('/admin/channels');
      // Redrawn only when something changed (the page polls), so what the operator reads does not flicker.
      const seen = JSON.stringify(body);
      if (seen === last) return;
      last = seen;
      put(list, body.channels.length ? body.channels.map(channelBlock) : h('p', { class: 'empty' }, 'No channel is served.'));
      for (const row of list.querySelectorAll('section.channel tbody tr')) {
        row.dataset.account = row.querySelector('td code')?.textContent ?? '';
      }
    } catch (err) {
      last = null;
      put(list, errorBox(err));
    }
  };
  add(
    ctx.main,
    h('h1', {}, 'Channels'),
    h(
      'p',
      { class: 'muted' },
      'Counts are since the gateway started. Refreshes every 5 s. DM pairing codes are on the ',
      h('a', { href: '#/pairing' }, 'Pairing'),
      ' page.',
    ),
    h(
      'div',
      { class: 'toolbar' },
      actionButton('Refresh', () => draw()),
    ),
    list,
  );
  await draw();
  ctx.every(5000, () => void draw());
}
