// Topology: the gateway's own picture of agents, bindings and peers (GET /admin/topology.svg), refreshed live.
// The picture is fetched with the caller's credentials and shown through an object URL in an <img>, where an
// SVG can run nothing.
import { apiBlob } from '../api.js';
import { actionButton, add, h, put } from '../dom.js';

export const TOPOLOGY_PATH = '/admin/topology.svg';

/**
 * Draws the SVG at `path` into `holder`; answers the HTTP status. 404: a placeholder saying this gateway has no
 * picture. Revokes the previous object URL each time.
 */
export async function drawPicture(holder, path = TOPOLOGY_PATH, init = {}) {
  const { status, blob } = await apiBlob(path, init);
  const previous = holder.querySelector('img')?.src;
  if (blob) {
    const img = h('img', { class: 'topology', alt: 'Topology of the gateway: agents, bindings, peers', src: URL.createObjectURL(blob) });
    put(holder, img);
  } else if (status === 404) {
    put(
      holder,
      h('div', { class: 'placeholder', id: 'topology-placeholder' }, `No topology picture on this gateway (${path} answered 404).`),
    );
  } else {
    put(holder, h('div', { class: 'error' }, `${path} answered ${status}.`));
  }
  if (previous?.startsWith('blob:')) URL.revokeObjectURL(previous);
  return status;
}

export async function topologyPage(ctx) {
  const holder = h('div', { class: 'picture', id: 'topology' });
  const stamp = h('span', { class: 'muted' });
  const auto = h('input', { type: 'checkbox', checked: true, id: 'topology-live' });
  add(
    ctx.main,
    h('h1', {}, 'Topology'),
    h(
      'div',
      { class: 'toolbar' },
      actionButton('Refresh', () => refresh()),
      h('label', {}, auto, ' live (every 5 s)'),
      stamp,
    ),
    holder,
  );
  async function refresh() {
    await drawPicture(holder);
    stamp.textContent = `updated ${new Date().toLocaleTimeString()}`;
  }
  ctx.onLeave(() => {
    const src = holder.querySelector('img')?.src;
    if (src) URL.revokeObjectURL(src);
  });
  await refresh();
  ctx.every(5000, () => {
    if (auto.checked && !document.hidden) void refresh();
  });
}
