import { isRecord } from '../../../common/is-record';
import type { Json5Edit, JsonPath } from './json5-edit';

/**
 * A JSON Merge Patch (RFC 7396) against `target`, as the minimal text edits the comment-keeping writer
 * applies: `null` removes a key, an object merges into an object that is already there, anything else
 * (arrays included) replaces the value whole. Objects merged into a missing or non-object value are
 * written as the patch with its `null`s dropped, which is what the RFC's recursion produces.
 */
export function mergePatchEdits(target: unknown, patch: Record<string, unknown>, at: JsonPath = []): Json5Edit[] {
  const edits: Json5Edit[] = [];
  const current = isRecord(target) ? target : undefined;
  for (const [key, value] of Object.entries(patch)) {
    const path = [...at, key];
    if (value === null) {
      if (current && Object.hasOwn(current, key)) edits.push({ op: 'remove', path });
    } else if (isRecord(value) && current && isRecord(current[key])) {
      edits.push(...mergePatchEdits(current[key], value, path));
    } else {
      edits.push({ op: 'set', path, value: isRecord(value) ? withoutNulls(value) : value });
    }
  }
  return edits;
}

/** The value a merge patch object takes when there is nothing to merge it into. */
export function withoutNulls(patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) continue;
    out[key] = isRecord(value) ? withoutNulls(value) : value;
  }
  return out;
}
