// Before/after pictures of a plan, when the gateway draws topology pictures; nothing when it does not.
import { h } from '../dom.js';

/** Pictures are not part of the plan API here: answer an empty fragment. */
export async function planPictures(_plan, _patch) {
  return h('div', { class: 'plan-pictures', hidden: true });
}
