// Before/after pictures of a plan, drawn by the gateway from one graph (the candidate's plus what it loses), so
// both share one layout and every node stands in the same place: before — the config as served, what the plan
// adds left blank where it will appear; after — what it adds in green, what it removes dashed red. The legend is
// in each picture, one compact block above the drawing. A gateway without topology pictures answers 404: then
// there is no picture.
import { h } from '../dom.js';
import { drawPicture } from './topology.js';

export const PLAN_PICTURE_PATH = '/admin/topology/plan.svg';

/** `candidate`: the body the plan was asked with ({ document } or { mergePatch }). */
export async function planPictures(plan, candidate) {
  if (!plan.valid) return null;
  const before = h('div', { class: 'picture', id: 'plan-before' });
  const after = h('div', { class: 'picture', id: 'plan-after' });
  const body = candidate;
  const [then] = await Promise.all([
    drawPicture(before, `${PLAN_PICTURE_PATH}?side=before`, { method: 'POST', body }),
    drawPicture(after, `${PLAN_PICTURE_PATH}?side=after`, { method: 'POST', body }),
  ]);
  if (then === 404) return null;
  return h(
    'section',
    { class: 'plan-pictures-wrap' },
    h('h2', {}, 'Topology'),
    h(
      'div',
      { class: 'plan-pictures' },
      h('figure', {}, h('figcaption', {}, 'Before'), before),
      h(
        'figure',
        {},
        h('figcaption', {}, 'After: ', h('span', { class: 'added' }, 'added'), ', ', h('span', { class: 'removed' }, 'removed')),
        after,
      ),
    ),
  );
}
