import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import JSON5 from 'json5';
import { conflict } from '../../../common/errors/app-error';
import { isRecord } from '../../../common/is-record';
import { toDottedPath } from '../pipeline/config-issue';
import { applyJson5Edits, Json5Edit, Json5EditError, JsonPath } from './json5-edit';
import { withoutNulls } from './merge-patch-edits';

/** One file of the config as it is on disk: its real path and its text (the root file first). */
export interface ConfigFileText {
  path: string;
  text: string;
}

/** An object of one file that contributes to a node of the merged document, and where it sits in that file. */
interface Location {
  file: string;
  at: JsonPath;
  obj: Record<string, unknown>;
}

/**
 * A JSON Merge Patch (RFC 7396) against the merged document, as minimal text edits of the files that hold
 * each edited node: a key written next to an `$include` is edited where it is written, a key that comes from
 * an included file is edited in that file, a new key goes where its section lives (the included file when
 * the section is only an `$include`), and a removed key is removed from every file that sets it. A list put
 * together from several files cannot be replaced from one of them: 409 naming the files. Returns the new
 * text of each file that changes.
 */
export function mergePatchFiles(files: ReadonlyArray<ConfigFileText>, patch: Record<string, unknown>): Map<string, string> {
  const docs = new Map(files.map((f) => [f.path, parseFile(f, files[0].path)]));
  const edits = new Map<string, Json5Edit[]>();
  const expand = (loc: Location): Location[] => [loc, ...includesOf(loc, docs).reverse().flatMap(expand)];
  const walk = (locations: Location[], node: Record<string, unknown>, at: JsonPath): void => {
    for (const [key, value] of Object.entries(node)) {
      const here = [...at, key];
      if (key === '$include') throw conflict(`${toDottedPath(here)}: the file layout is not edited through a merge patch; edit the files`);
      const holders = locations.filter((l) => Object.hasOwn(l.obj, key));
      const add = (loc: Location, edit: Json5Edit) => edits.set(loc.file, [...(edits.get(loc.file) ?? []), edit]);
      if (value === null) {
        for (const h of holders) add(h, { op: 'remove', path: [...h.at, key] });
      } else if (isRecord(value) && holders.length && isRecord(holders[0].obj[key])) {
        const inner = holders.filter((h) => isRecord(h.obj[key]));
        walk(
          inner.flatMap((h) => expand({ file: h.file, at: [...h.at, key], obj: h.obj[key] as Record<string, unknown> })),
          value,
          here,
        );
      } else {
        const lists = holders.filter((h) => Array.isArray(h.obj[key]));
        if (Array.isArray(value) && lists.length > 1) {
          const names = lists.map((h) => path.relative(path.dirname(files[0].path), h.file) || path.basename(h.file));
          throw conflict(`${toDottedPath(here)} is put together from several files (${names.join(', ')}); edit those files instead`);
        }
        const target = holders[0] ?? home(locations);
        if (containsInclude(target.obj[key])) {
          throw conflict(`${toDottedPath(here)} contains an $include; replacing it would drop the included file: edit the files instead`);
        }
        const next = isRecord(value) ? withoutNulls(value) : value;
        for (const edit of replaceEdits(target.obj[key], next, [...target.at, key])) add(target, edit);
      }
    }
  };
  const root = files[0];
  walk(expand({ file: root.path, at: [], obj: docs.get(root.path)! }), patch, []);
  const out = new Map<string, string>();
  for (const [file, fileEdits] of edits) {
    const before = files.find((f) => f.path === file)!.text;
    let after: string;
    try {
      after = applyJson5Edits(before, fileEdits);
    } catch (err) {
      if (err instanceof Json5EditError) throw conflict(err.message);
      throw err;
    }
    if (after !== before) out.set(file, after);
  }
  return out;
}

/**
 * The edits that make `before` into `after` while touching as little text as possible: a list of the same
 * length is changed element by element and an object key by key, so the comments inside them stay; anything
 * else is replaced whole. The value written is the same as a replacement.
 */
function replaceEdits(before: unknown, after: unknown, at: JsonPath): Json5Edit[] {
  if (isDeepStrictEqual(before, after)) return [];
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    return after.flatMap((v, i) => replaceEdits(before[i], v, [...at, i]));
  }
  if (isRecord(before) && isRecord(after)) {
    const removed: Json5Edit[] = Object.keys(before)
      .filter((k) => !Object.hasOwn(after, k))
      .map((k) => ({ op: 'remove', path: [...at, k] }));
    return [...removed, ...Object.entries(after).flatMap(([k, v]) => (Object.hasOwn(before, k) ? replaceEdits(before[k], v, [...at, k]) : [{ op: 'set' as const, path: [...at, k], value: v }]))];
  }
  return [{ op: 'set', path: at, value: after }];
}

function containsInclude(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(containsInclude);
  return isRecord(value) && (Object.hasOwn(value, '$include') || Object.values(value).some(containsInclude));
}

/** Where a new key of a section goes: next to the section's other keys, or into its included file when that is all it is. */
function home(locations: Location[]): Location {
  const [first, next] = locations;
  const onlyInclude = Object.keys(first.obj).every((k) => k === '$include');
  return onlyInclude && next ? next : first;
}

/** The top objects of the files an object's `$include` names, in the order they merge (later wins). */
function includesOf(loc: Location, docs: ReadonlyMap<string, Record<string, unknown>>): Location[] {
  const spec = loc.obj.$include;
  if (spec === undefined) return [];
  const targets = typeof spec === 'string' ? [spec] : Array.isArray(spec) ? spec.filter((t): t is string => typeof t === 'string') : [];
  return targets.map((given) => {
    const file = path.resolve(path.dirname(loc.file), given);
    const obj = docs.get(file);
    if (!obj) throw conflict(`${toDottedPath([...loc.at, '$include'])}: cannot follow ${given} from ${path.basename(loc.file)} to a file of the config`);
    return { file, at: [], obj };
  });
}

function parseFile(file: ConfigFileText, rootPath: string): Record<string, unknown> {
  try {
    const doc: unknown = JSON5.parse(file.text.replace(/^\uFEFF/, ''));
    if (isRecord(doc)) return doc;
  } catch {
    // fall through: the file on disk is broken; say so instead of guessing
  }
  const name = file.path === rootPath ? 'openclaw.json' : file.path;
  throw conflict(`${name} is not a valid JSON5 object right now; fix it before editing through the gateway`);
}
