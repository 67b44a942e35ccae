import * as nodePath from 'node:path';
import { fromDottedPath, type ConfigIssue } from '../pipeline/config-issue';
import type { Json5Edit } from '../writer/json5-edit';

/**
 * What `clawgate doctor --fix` does with keys neither OpenClaw nor clawgate knows (OpenClaw's doctor drops them
 * too, listing each): a key of the root file is removed; a likely typo (the error has a did-you-mean) is left for
 * the user to rename, since removing it would lose the setting they meant; a key in an included file is left too
 * (the fix edits the root file only).
 */
export interface UnknownKeyRemoval {
  edits: Json5Edit[];
  /** One line per key removed: `agents.list[0].failoverFor`. */
  removed: string[];
  /** Unknown keys left in place, with why. */
  left: string[];
}

const UNKNOWN = /^unknown key(?: \(did you mean "([^"]+)"\?\))?/;

export function unknownKeyRemoval(errors: readonly ConfigIssue[], rootFile: string, rootDoc: unknown): UnknownKeyRemoval {
  const out: UnknownKeyRemoval = { edits: [], removed: [], left: [] };
  for (const issue of errors) {
    const match = UNKNOWN.exec(issue.message);
    if (!match) continue;
    if (match[1]) {
      out.left.push(`${issue.path}: unknown key; did you mean "${match[1]}"? rename it by hand`);
      continue;
    }
    const path = fromDottedPath(issue.path);
    if (!path || (issue.file && nodePath.resolve(issue.file) !== nodePath.resolve(rootFile)) || !presentIn(rootDoc, path)) {
      out.left.push(`${issue.path}: unknown key in an included file; remove it there`);
      continue;
    }
    out.edits.push({ op: 'remove', path });
    out.removed.push(issue.path);
  }
  return out;
}

function presentIn(doc: unknown, path: ReadonlyArray<string | number>): boolean {
  let node = doc;
  for (const seg of path) {
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, seg)) return false;
    node = (node as Record<string | number, unknown>)[seg];
  }
  return true;
}
