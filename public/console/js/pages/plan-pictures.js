// Before/after pictures of a plan: the served topology, and the candidate's with what it adds (green) and removes
// (dashed red), drawn by the gateway. A gateway without topology pictures answers 404: then there is no picture.
import { h } from '../dom.js';
import { drawPicture, TOPOLOGY_PATH } from './topology.js';

export const PLAN_PICTURE_PATH = '/admin/topology/plan.svg';

export async function planPictures(plan, patch) {
  if (!plan.valid) return null;
  const before = h('div', { class: 'picture', id: 'plan-before' });
  const after = h('div', { class: 'picture', id: 'plan-after' });
  const [now] = await Promise.all([
    drawPicture(before, TOPOLOGY_PATH),
    drawPicture(after, PLAN_PICTURE_PATH, { method: 'POST', body: { mergePatch: patch } }),
  ]);
  if (now === 404) return null;
  return h(
    'section',
    { class: 'plan-pictures-wrap' },
    h('h2', {}, 'Topology'),
    h(
      'div',
      { class: 'plan-pictures' },
      h('figure', {}, h('figcaption', {}, 'Now'), before),
      h('figure', {}, h('figcaption', {}, 'After this change (added in green, removed dashed red)'), after),
    ),
  );
}
