// JSON Merge Patch (RFC 7396): what the editor sends to turn the document it loaded into the one the operator
// wrote. Objects merge key by key, null removes a key, anything else — arrays included — replaces the value.

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

function equal(a, b) {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => equal(v, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && equal(a[k], b[k]));
  }
  return false;
}

/**
 * The merge patch that turns `before` into `after` (both JSON objects), or undefined when they are equal. Throws when
 * `after` holds a null inside an object: a merge patch cannot set a value to null (null means "remove").
 */
export function createMergePatch(before, after, path = '') {
  if (!isObject(before) || !isObject(after)) {
    if (equal(before, after)) return undefined;
    assertNoNull(after, path);
    return after;
  }
  const patch = {};
  for (const key of Object.keys(before)) {
    if (!Object.hasOwn(after, key)) patch[key] = null;
  }
  for (const [key, value] of Object.entries(after)) {
    const at = path ? `${path}.${key}` : key;
    if (value === null) {
      if (before[key] === null) continue;
      throw new Error(`${at}: a merge patch cannot set null (null removes the key); remove the key instead`);
    }
    const sub = Object.hasOwn(before, key) ? createMergePatch(before[key], value, at) : (assertNoNull(value, at), value);
    if (sub !== undefined) patch[key] = sub;
  }
  return Object.keys(patch).length ? patch : undefined;
}

function assertNoNull(value, path) {
  if (!isObject(value)) return;
  for (const [key, v] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (v === null) throw new Error(`${at}: a merge patch cannot set null (null removes the key); remove the key instead`);
    assertNoNull(v, at);
  }
}

/** Applies a merge patch (RFC 7396 §2) to a value, without changing either. */
export function applyMergePatch(target, patch) {
  if (!isObject(patch)) return structuredClone(patch);
  const result = isObject(target) ? structuredClone(target) : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = applyMergePatch(result[key], value);
  }
  return result;
}

/**
 * Dotted paths in the patch whose value is the redaction marker: sending one would write the marker over a
 * secret (this happens when an array holding a secret is replaced whole).
 */
export function redactedPaths(patch, marker = '[redacted]', path = '') {
  if (typeof patch === 'string') return patch.includes(marker) ? [path || '(root)'] : [];
  if (Array.isArray(patch)) return patch.flatMap((v, i) => redactedPaths(v, marker, `${path}[${i}]`));
  if (isObject(patch)) return Object.entries(patch).flatMap(([k, v]) => redactedPaths(v, marker, path ? `${path}.${k}` : k));
  return [];
}
