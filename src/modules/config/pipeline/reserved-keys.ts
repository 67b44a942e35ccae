import { ConfigIssue, toDottedPath } from './config-issue';

/**
 * The properties every JavaScript object inherits from Object.prototype. As keys of a config they cannot be
 * held faithfully: `__proto__` assigned the ordinary way replaces an object's prototype instead of adding a
 * key, and code that reads `constructor` or `toString` off an object gets the built-in when the key is
 * absent, so the validation library drops or trips over them. The list is fixed here rather than read from
 * Object.prototype so that what the config accepts does not depend on the Node.js version.
 */
export const RESERVED_KEY_NAMES: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'toString',
  'toLocaleString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
]);

export const RESERVED_KEY_MESSAGE =
  'reserved key name (the built-in properties of JavaScript objects, such as __proto__, constructor and toString, cannot be used as keys)';

/**
 * One issue per reserved key anywhere in the document: section keys, map names (peers, accounts,
 * providers, agents.entries) and string maps (headers, roleMapping) alike. Walks with its own stack, so
 * it holds for any document the caller hands it.
 */
export function reservedKeyIssues(doc: unknown): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const pending: Array<{ node: unknown; segs: Array<string | number> }> = [{ node: doc, segs: [] }];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const { node, segs } = item;
    const key = segs[segs.length - 1];
    if (typeof key === 'string' && RESERVED_KEY_NAMES.has(key)) {
      issues.push({ path: toDottedPath(segs), message: RESERVED_KEY_MESSAGE });
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    const children: Array<[string | number, unknown]> = Array.isArray(node) ? node.map((v, i) => [i, v]) : Object.entries(node);
    // Last child first onto the stack, so the issues come in the order of the document.
    for (let i = children.length - 1; i >= 0; i--) pending.push({ node: children[i][1], segs: [...segs, children[i][0]] });
  }
  return issues;
}
