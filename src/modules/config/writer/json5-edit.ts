/**
 * Minimal-edit JSON5 writer. The admin API changes config files that people also edit by hand, so a
 * change must not reformat the file: every edit is a text splice over the exact range of the node it
 * touches, and everything else (comments, quoting, trailing commas, blank lines, CRLF) stays byte-for-byte.
 *
 * A JSON5 document is a JavaScript expression, so acorn gives us exact offsets for every value. JSON5
 * itself is used to validate input and output, so acorn's wider grammar never leaks into a file.
 */
import { parse as acornParse, type Expression, type Program } from 'acorn';
import * as JSON5 from 'json5';
import { toDottedPath } from '../pipeline/config-issue';

export type JsonPath = ReadonlyArray<string | number>;
export type Json5Edit = { op: 'set'; path: JsonPath; value: unknown } | { op: 'remove'; path: JsonPath };

export class Json5EditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Json5EditError';
  }
}

/** Internal: a value the serializer cannot write; re-thrown as Json5EditError with the edit's path. */
class SerializeError extends Error {}

/** The parse tree below is shared with `line-of-path.ts`, which reads positions from it. */
/** One object property (key set) or array element; start/end cover `key: value` or the element. */
export interface Entry {
  start: number;
  end: number;
  key?: string;
  value: JNode;
}
export interface Container {
  kind: 'object' | 'array';
  start: number;
  end: number;
  entries: Entry[];
}
export interface Scalar {
  kind: 'scalar';
  start: number;
  end: number;
  quote?: string;
}
export type JNode = Container | Scalar;
/** Layout conventions detected from the file so inserted text looks like the rest of it. */
interface Style {
  unit: string;
  eol: string;
  trailing: boolean;
}
export interface Doc {
  text: string;
  root: Container;
  style: Style;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const INLINE_ARRAY_MAX = 72;

export function applyJson5Edits(text: string, edits: ReadonlyArray<Json5Edit>): string {
  checkJson5(text, 'document is not valid JSON5');
  let out = text;
  for (const edit of edits) {
    out = applyOne(out, edit);
    // Guard against our own bugs: never hand back a file the loader would reject.
    checkJson5(out, `internal error: ${edit.op} ${toDottedPath(edit.path)} produced invalid JSON5`);
  }
  return out;
}

function checkJson5(text: string, what: string): void {
  try {
    JSON5.parse(text);
  } catch (e) {
    throw new Json5EditError(`${what}: ${(e as Error).message}`);
  }
}

function applyOne(text: string, edit: Json5Edit): string {
  const doc = parseDoc(text);
  const { path } = edit;
  const fail = (msg: string) => new Json5EditError(`cannot ${edit.op} ${toDottedPath(path) || '(root)'}: ${msg}`);
  if (path.length === 0) throw fail('path must not be empty');
  const label = (n: number) => (n === 0 ? 'the top level' : toDottedPath(path.slice(0, n)));

  let node: JNode = doc.root;
  for (let i = 0; i < path.length - 1; i++) {
    const { entry, container } = findEntry(node, path[i], label(i), fail);
    if (!entry) {
      const size = container.kind === 'array' ? ` (array has ${container.entries.length} elements)` : '';
      throw fail(`${label(i + 1)} not found${size}`);
    }
    node = entry.value;
  }
  const last = path[path.length - 1];
  const { entry, index, container } = findEntry(node, last, label(path.length - 1), fail);
  const size = `array has ${container.entries.length} elements`;

  if (edit.op === 'remove') {
    if (!entry) throw fail(container.kind === 'array' ? size : 'key not found');
    return removeEntry(doc, container, index);
  }
  if (edit.op !== 'set') throw fail(`unknown op ${JSON.stringify((edit as { op: unknown }).op)}`);
  if (edit.value === undefined) throw fail('value is undefined (use remove to delete)');
  if (container.kind === 'array' && !entry && index !== container.entries.length) throw fail(size);
  try {
    if (entry) return replaceValue(doc, entry.value, edit.value);
    return insertEntry(doc, container, typeof last === 'string' ? last : undefined, edit.value);
  } catch (e) {
    throw e instanceof SerializeError ? fail(e.message) : e;
  }
}

function findEntry(node: JNode, seg: string | number, label: string, fail: (m: string) => Error) {
  if (node.kind === 'scalar') throw fail(`${label} is a plain value, not an object or array`);
  if (typeof seg === 'number') {
    if (node.kind !== 'array') throw fail(`${label} is an object, not an array`);
    if (!Number.isInteger(seg) || seg < 0) throw fail(`invalid array index ${seg}`);
    return { container: node, index: seg, entry: node.entries[seg] as Entry | undefined };
  }
  if (node.kind !== 'object') throw fail(`${label} is an array, not an object`);
  // JSON5 keeps the last of duplicate keys, so that is the one whose value matters.
  let index = -1;
  node.entries.forEach((e, i) => {
    if (e.key === seg) index = i;
  });
  return { container: node, index, entry: index < 0 ? undefined : node.entries[index] };
}

export function parseDoc(text: string): Doc {
  let program: Program;
  try {
    // The newline before `)` keeps a trailing line comment from swallowing the parenthesis.
    const src = `(${text}\n)`;
    program = acornParse(src, { ecmaVersion: 'latest', ranges: true, locations: true });
  } catch (e) {
    throw new Json5EditError(`cannot parse document: ${(e as Error).message}`);
  }
  const stmt = program.body.length === 1 ? program.body[0] : undefined;
  if (stmt?.type !== 'ExpressionStatement') throw new Json5EditError('document must be a single value');
  const root = convert(stmt.expression);
  if (root.kind !== 'object') throw new Json5EditError('top level of the document must be an object');
  return { text, root, style: detectStyle(text, root) };
}

/** Turns acorn's AST into our small tree; offsets shift by 1 for the `(` added in parseDoc. */
function convert(n: Expression): JNode {
  const [start, end] = [n.start - 1, n.end - 1];
  const bad = () => new Json5EditError(`unsupported syntax ${n.type} at offset ${start}`);
  if (n.type === 'ObjectExpression') {
    const entries = n.properties.map((p): Entry => {
      if (p.type !== 'Property' || p.computed || p.shorthand || p.method) throw bad();
      const key = p.key.type === 'Identifier' ? p.key.name : p.key.type === 'Literal' ? p.key.value : undefined;
      if (typeof key !== 'string') throw bad();
      return { start: p.start - 1, end: p.end - 1, key, value: convert(p.value) };
    });
    return { kind: 'object', start, end, entries };
  }
  if (n.type === 'ArrayExpression') {
    const entries = n.elements.map((el): Entry => {
      if (!el || el.type === 'SpreadElement') throw bad();
      const value = convert(el);
      return { start: value.start, end: value.end, value };
    });
    return { kind: 'array', start, end, entries };
  }
  if (n.type === 'Literal' && !n.regex && n.bigint === undefined) {
    return { kind: 'scalar', start, end, quote: typeof n.value === 'string' ? n.raw?.[0] : undefined };
  }
  const special = (a: Expression) =>
    a.type === 'Identifier' ? a.name === 'Infinity' || a.name === 'NaN' : a.type === 'Literal' && typeof a.value === 'number';
  if (n.type === 'Identifier' && special(n)) return { kind: 'scalar', start, end };
  if (n.type === 'UnaryExpression' && (n.operator === '-' || n.operator === '+') && special(n.argument)) {
    return { kind: 'scalar', start, end };
  }
  throw bad();
}

function detectStyle(text: string, root: Container): Style {
  let [trailing, tabs, spaces] = [false, 0, 0];
  const deltas = new Map<number, number>();
  const visit = (c: Container) => {
    const last = c.entries[c.entries.length - 1];
    if (last && text[scan(text, last.end, true)] === ',') trailing = true;
    const base = lineIndent(text, c.start);
    for (const e of c.entries) {
      if (firstOnLine(text, e.start)) {
        const ind = lineIndent(text, e.start);
        if (ind.startsWith('\t')) tabs++;
        else if (ind.length > base.length) {
          spaces++;
          deltas.set(ind.length - base.length, (deltas.get(ind.length - base.length) ?? 0) + 1);
        }
      }
      if (e.value.kind !== 'scalar') visit(e.value);
    }
  };
  visit(root);
  // Most common nesting step wins, so an odd hand-aligned line does not change the unit.
  const step = [...deltas].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? 2;
  return { unit: tabs > spaces ? '\t' : ' '.repeat(step), eol: text.includes('\r\n') ? '\r\n' : '\n', trailing };
}

function replaceValue(doc: Doc, node: JNode, value: unknown): string {
  const { text } = doc;
  // Same value: keep the existing text (and its comments/format) rather than re-serializing.
  if (deepEqual(JSON5.parse(text.slice(node.start, node.end)), value)) return text;
  // A string keeps its quote style, so `'a'` -> `'b'` -> `'a'` round-trips to the original bytes.
  const quote = node.kind === 'scalar' && node.quote ? node.quote : '"';
  const out = serialize(value, lineIndent(text, node.start), doc.style, [], quote);
  return splice(text, [[node.start, node.end, out]]);
}

function insertEntry(doc: Doc, c: Container, key: string | undefined, value: unknown): string {
  const { text, style } = doc;
  const render = (indent: string) => (key === undefined ? '' : `${formatKey(key)}: `) + serialize(value, indent, style);
  const baseIndent = lineIndent(text, c.start);
  const last = c.entries[c.entries.length - 1];
  const close = c.end - 1;

  if (!last) {
    if (/^\s*$/.test(text.slice(c.start + 1, close))) {
      // Nothing inside but whitespace: write the container fresh, so it follows the normal layout rules.
      const fresh: unknown = key === undefined ? [value] : Object.defineProperty({}, key, { value, enumerable: true });
      return splice(text, [[c.start, c.end, serialize(fresh, baseIndent, style)]]);
    }
    // Only comments inside: keep them and add the entry on its own line before the closing bracket.
    const indent = baseIndent + style.unit;
    const line = indent + render(indent) + (style.trailing ? ',' : '');
    if (firstOnLine(text, close)) {
      const at = lineStart(text, close);
      return splice(text, [[at, at, line + style.eol]]);
    }
    return splice(text, [[close, close, style.eol + line + style.eol + baseIndent]]);
  }

  const after = scan(text, last.end, true);
  const hasComma = text[after] === ',';
  if (lineStart(text, last.start) === lineStart(text, c.start)) {
    // Single-line container such as `[1, 2]` or `{ a: 1 }`: stay on that line.
    const piece = render(baseIndent);
    return hasComma ? splice(text, [[after + 1, after + 1, ` ${piece},`]]) : splice(text, [[last.end, last.end, `, ${piece}`]]);
  }
  // Insert after the whole line of the last entry, so a comment trailing it stays with it; the
  // separating comma (if missing) goes right after the entry, before that comment.
  const indent = lineIndent(text, last.start);
  const at = scan(text, hasComma ? after + 1 : last.end, false);
  const splices: Splice[] = [[at, at, style.eol + indent + render(indent) + (hasComma ? ',' : '')]];
  if (!hasComma) splices.push([last.end, last.end, ',']);
  return splice(text, splices);
}

function removeEntry(doc: Doc, c: Container, index: number): string {
  const { text } = doc;
  const [e, prev] = [c.entries[index], c.entries[index - 1] as Entry | undefined];
  const afterPos = scan(text, e.end, true);
  const commaAfter = text[afterPos] === ',' ? afterPos : -1;
  const tail = commaAfter < 0 ? e.end : commaAfter + 1;

  // The only entry, with nothing else but whitespace around it: collapse to `{}` / `[]`.
  if (c.entries.length === 1 && /^\s*$/.test(text.slice(c.start + 1, e.start) + text.slice(tail, c.end - 1))) {
    return splice(text, [[c.start + 1, c.end - 1, '']]);
  }
  const splices: Splice[] = [];
  // Removing the last entry that had no comma of its own: drop the previous separator instead, so
  // a file without trailing commas does not suddenly get one.
  const commaBefore = prev && commaAfter < 0 ? scan(text, prev.end, true) : -1;
  const lineEnd = scan(text, tail, false);
  if (firstOnLine(text, e.start) && isEol(text, lineEnd)) {
    // Entry on its own line(s): remove those lines whole, including a comment after it on its last line.
    splices.push([lineStart(text, e.start), lineEnd + (text.startsWith('\r\n', lineEnd) ? 2 : 1), '']);
    if (commaBefore >= 0) splices.push([commaBefore, commaBefore + 1, '']);
  } else if (commaAfter >= 0) {
    let end = tail;
    while (text[end] === ' ' || text[end] === '\t') end++;
    splices.push([e.start, end, '']);
  } else if (commaBefore >= 0 && /^\s*$/.test(text.slice(commaBefore + 1, e.start))) {
    splices.push([commaBefore, e.end, '']);
  } else {
    splices.push([e.start, e.end, '']);
    if (commaBefore >= 0) splices.push([commaBefore, commaBefore + 1, '']);
  }
  return splice(text, splices);
}

/** Writes a value in the style of a hand-edited file; `indent` is the indentation of its first line. */
function serialize(value: unknown, indent: string, style: Style, seen: unknown[] = [], quote = '"'): string {
  if (value === null || typeof value === 'boolean') return String(value);
  // String() gives NaN/Infinity/-Infinity, which JSON5 accepts; keep the sign of -0.
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'string') return quoteString(value, quote);
  if (typeof value !== 'object') throw new SerializeError(`cannot write a ${typeof value} value`);
  const withJson = value as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === 'function') return serialize(withJson.toJSON(), indent, style, seen);
  if (seen.includes(value)) throw new SerializeError('value contains a circular reference');
  const inner = indent + style.unit;
  const next = [...seen, value];
  let items: string[];
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    // Like JSON.stringify, a hole or undefined element becomes null.
    items = Array.from(value, (x) => serialize(x === undefined ? null : x, inner, style, next));
    const flat = `[${items.join(', ')}]`;
    if (value.every((x) => x === null || typeof x !== 'object') && flat.length <= INLINE_ARRAY_MAX) return flat;
  } else {
    items = Object.entries(value)
      .filter(([, x]) => x !== undefined)
      .map(([k, x]) => `${formatKey(k)}: ${serialize(x, inner, style, next)}`);
    if (items.length === 0) return '{}';
  }
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  const body = items.map((s) => inner + s).join(',' + style.eol) + (style.trailing ? ',' : '');
  return open + style.eol + body + style.eol + indent + close;
}

const formatKey = (key: string) => (IDENT.test(key) ? key : jsonString(key));

/**
 * JSON.stringify, with U+2028/U+2029 escaped too: JSON leaves them raw, and json5 warns about them on the
 * console at every parse (every reload) of a file that has them raw inside a string.
 */
function jsonString(s: string): string {
  return JSON.stringify(s).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

function quoteString(s: string, quote: string): string {
  const json = jsonString(s);
  if (quote === '"') return json;
  // Re-quote JSON's escaping for single quotes: `\"` needs no escape, a bare `'` does.
  const body = json.slice(1, -1).replace(/\\.|'/g, (m) => (m === '\\"' ? '"' : m === "'" ? "\\'" : m));
  return `'${body}'`;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) !== Array.isArray(b)) return false;
  const [ra, rb] = [a as Record<string, unknown>, b as Record<string, unknown>];
  const keys = Object.keys(ra);
  return keys.length === Object.keys(rb).length && keys.every((k) => Object.hasOwn(rb, k) && deepEqual(ra[k], rb[k]));
}

type Splice = [start: number, end: number, insert: string];

function splice(text: string, splices: Splice[]): string {
  // Apply from the end so earlier offsets stay valid.
  let out = text;
  for (const [start, end, insert] of [...splices].sort((x, y) => y[0] - x[0])) {
    out = out.slice(0, start) + insert + out.slice(end);
  }
  return out;
}

/**
 * Skips whitespace and comments from `pos`. Only valid between tokens (never inside a string), which
 * is the only place it is used. With crossLines=false it stops at the end of the line, but a block
 * comment that starts on this line is skipped whole.
 */
function scan(text: string, pos: number, crossLines: boolean): number {
  for (;;) {
    const ch = text[pos];
    if (ch !== undefined && (crossLines ? /\s/ : /[^\S\r\n]/).test(ch)) pos++;
    else if (text.startsWith('//', pos)) {
      const m = /[\r\n\u2028\u2029]/g;
      m.lastIndex = pos;
      pos = m.exec(text)?.index ?? text.length;
    } else if (text.startsWith('/*', pos)) {
      const close = text.indexOf('*/', pos + 2);
      pos = close < 0 ? text.length : close + 2;
    } else return pos;
  }
}

const isEol = (text: string, pos: number) => text[pos] === '\n' || text[pos] === '\r';
const lineStart = (text: string, pos: number) => text.lastIndexOf('\n', pos - 1) + 1;
const lineIndent = (text: string, pos: number) => /^[ \t]*/.exec(text.slice(lineStart(text, pos), pos))![0];
const firstOnLine = (text: string, pos: number) => /^[ \t]*$/.test(text.slice(lineStart(text, pos), pos));
