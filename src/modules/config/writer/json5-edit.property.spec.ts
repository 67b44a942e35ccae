import fc from 'fast-check';
import * as JSON5 from 'json5';
import * as os from 'node:os';
import * as path from 'node:path';
import { type Doc, escapeSeparators, validConfig } from '../../../../test/support/config-arbitraries';
import { propertyParameters, propertyTimeout } from '../../../../test/support/property-runs';
import { loadConfig } from '../pipeline/load-config';
import { applyJson5Edits, Json5Edit, JsonPath } from './json5-edit';

/**
 * Round trips through the comment-keeping writer: a valid config, written in one of the layouts people use,
 * is edited into another valid config with the writer's set/remove edits. The result must parse to exactly
 * the intended document (key order included: the order of agents.entries is the order of the agents),
 * load without errors with the same revision as that document, and keep the comment at the top.
 */

const HEADER = '// openclaw.json, edited by hand\n';

/** JSON text with U+2028/U+2029 escaped, as the writer writes them (json5 warns about them raw). */
const json = (value: unknown, indent?: number) => escapeSeparators(JSON.stringify(value, null, indent));

/** Layouts of the same document: what the writer has to find its way through. */
const LAYOUTS: Record<string, (doc: Doc) => string> = {
  json: (doc) => json(doc, 2),
  compact: (doc) => json(doc),
  json5: (doc) => JSON5.stringify(doc, null, 2),
  tabs: (doc) => JSON5.stringify(doc, null, '\t'),
  commented: (doc) => commented(doc, ''),
  crlf: (doc) => json(doc, 4).replace(/\n/g, '\r\n'),
};

/** Every entry under a line comment, a block comment after every value, trailing commas. */
function commented(value: unknown, indent: string): string {
  if (value === null || typeof value !== 'object') return json(value);
  const inner = `${indent}  `;
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  if (entries.length === 0) return Array.isArray(value) ? '[ /* empty */ ]' : '{ /* empty */ }';
  const body = entries.map(([k, v]) => {
    const key = Array.isArray(value) ? '' : `${json(k)}: `;
    return `${inner}// ${Array.isArray(value) ? 'item' : 'key'} ${json(k)}\n${inner}${key}${commented(v, inner)} /* ok */,\n`;
  });
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return `${open}\n${body.join('')}${indent}${close}`;
}

/** A tiny PRNG, so one generated number decides every choice the diff makes. */
function choices(seed: number): () => boolean {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) % 4 !== 0; // true three times in four
  };
}

const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Edits that turn `from` into `to`: sometimes a whole subtree is set, sometimes the edit goes down to the
 * keys and elements (removing from the end of arrays, appending to them), sometimes an equal value is set
 * again (the writer must leave its text alone).
 */
function editsBetween(from: Doc, to: Doc, deeper: () => boolean): Json5Edit[] {
  const edits: Json5Edit[] = [];
  const objects = (a: Doc, b: Doc, at: JsonPath) => {
    for (const key of Object.keys(a)) if (!Object.hasOwn(b, key)) edits.push({ op: 'remove', path: [...at, key] });
    for (const key of Object.keys(b)) {
      if (Object.hasOwn(a, key)) values(a[key], b[key], [...at, key]);
      else edits.push({ op: 'set', path: [...at, key], value: b[key] });
    }
  };
  const values = (a: unknown, b: unknown, at: JsonPath) => {
    if (JSON.stringify(a) === JSON.stringify(b)) {
      if (!deeper()) edits.push({ op: 'set', path: at, value: b });
      return;
    }
    if (isObject(a) && isObject(b) && deeper()) return objects(a, b, at);
    if (Array.isArray(a) && Array.isArray(b) && deeper()) {
      const common = Math.min(a.length, b.length);
      for (let i = 0; i < common; i++) values(a[i], b[i], [...at, i]);
      for (let i = a.length - 1; i >= b.length; i--) edits.push({ op: 'remove', path: [...at, i] });
      for (let i = a.length; i < b.length; i++) edits.push({ op: 'set', path: [...at, i], value: b[i] });
      return;
    }
    edits.push({ op: 'set', path: at, value: b });
  };
  objects(from, to, []);
  return edits;
}

/** What the edits mean on a plain document: a new key goes last, an existing one keeps its place. */
function applyToDocument(doc: Doc, edits: Json5Edit[]): Doc {
  const out = structuredClone(doc);
  for (const edit of edits) {
    let node: unknown = out;
    for (const seg of edit.path.slice(0, -1)) node = (node as Record<string | number, unknown>)[seg];
    const last = edit.path[edit.path.length - 1];
    if (Array.isArray(node)) {
      if (edit.op === 'remove') node.splice(last as number, 1);
      else node[last as number] = structuredClone(edit.value);
    } else if (edit.op === 'remove') delete (node as Doc)[last];
    else (node as Doc)[last] = structuredClone(edit.value);
  }
  return out;
}

/**
 * The sections of `from`, with some groups of them taken from `other`: an edit usually touches a part of
 * the file. Agents, bindings and models go together (bindings name agents, agents name models).
 */
const SECTION_GROUPS = [['agents', 'bindings', 'models'], ['gateway'], ['tools', 'session'], ['memory'], ['channels'], ['$schema']];
function mixed(from: Doc, other: Doc, takeOther: boolean[]): Doc {
  const out: Doc = {};
  SECTION_GROUPS.forEach((group, i) => {
    const source = takeOther[i] ? other : from;
    for (const key of group) if (Object.hasOwn(source, key)) out[key] = source[key];
  });
  return out;
}
const edit = fc
  .tuple(validConfig, validConfig, fc.array(fc.boolean(), { minLength: SECTION_GROUPS.length, maxLength: SECTION_GROUPS.length }))
  .map(([from, other, takeOther]) => ({ from, to: mixed(from, other, takeOther) }));

describe('json5 writer (properties)', () => {
  const load = (rootText: string) =>
    loadConfig({ configPath: path.join(os.tmpdir(), 'openclaw.json'), stateDir: '/nonexistent/state', homeDir: '/nonexistent/home', env: {}, rootText });

  it(
    'edits one valid config into another: exactly the intended document, valid, same revision, comments kept',
    async () => {
      await fc.assert(
        fc.asyncProperty(edit, fc.constantFrom(...Object.keys(LAYOUTS)), fc.nat(), async ({ from, to }, layout, seed) => {
          const text = HEADER + LAYOUTS[layout](from);
          const edits = editsBetween(from, to, choices(seed));
          const intended = applyToDocument(from, edits);
          expect(intended).toEqual(to); // the edits are right; order aside, they lead to `to`

          const edited = applyJson5Edits(text, edits);
          expect(edited.startsWith(HEADER)).toBe(true);
          expect(edited).not.toMatch(/[\u2028\u2029]/);
          expect(JSON.stringify(JSON5.parse(edited))).toBe(JSON.stringify(intended));
          const [result, reference] = await Promise.all([load(edited), load(json(intended))]);
          if (!result.ok || !reference.ok) throw new Error(`rejected: ${JSON.stringify(result.ok ? [] : result.errors)}`);
          expect(result.snapshot.revision).toBe(reference.snapshot.revision);
        }),
        propertyParameters(100),
      );
    },
    propertyTimeout(100, 40),
  );
});
