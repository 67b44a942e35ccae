import { parseDoc, type Container, type Doc, type Entry, type JNode } from './json5-edit';

/**
 * The line (1-based) where a dotted path of the document (`agents.list[2].modle`) is written in this text: the
 * entry itself, or the deepest of its parents the text holds (a missing key is reported where it would go). For
 * pointing at an issue found in the merged document; undefined when the text is not a JSON5 object.
 */
export function lineOfPath(text: string, dottedPath: string): number | undefined {
  let doc: Doc;
  try {
    doc = parseDoc(text);
  } catch {
    return undefined;
  }
  let node: JNode = doc.root;
  let at: number | undefined;
  for (const seg of pathSegments(dottedPath)) {
    if (node.kind === 'scalar') break;
    const entry: Entry | undefined =
      typeof seg === 'number' ? (node.kind === 'array' ? node.entries[seg] : undefined) : node.kind === 'object' ? lastWithKey(node, seg) : undefined;
    if (!entry) break;
    at = entry.start;
    node = entry.value;
  }
  if (at === undefined) return undefined;
  return text.slice(0, at).split('\n').length;
}

function lastWithKey(node: Container, key: string): Entry | undefined {
  // JSON5 keeps the last of duplicate keys, so that is the one an issue is about.
  return [...node.entries].reverse().find((e) => e.key === key);
}

/** `a.b[2]["x.y"]` → ['a', 'b', 2, 'x.y'] (the form toDottedPath writes). */
function pathSegments(dotted: string): Array<string | number> {
  const out: Array<string | number> = [];
  const re = /\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]|([^.[\]]+)/g;
  for (const [, index, quoted, plain] of dotted.matchAll(re)) {
    if (index !== undefined) out.push(Number(index));
    else if (quoted !== undefined) out.push(JSON.parse(`"${quoted}"`) as string);
    else out.push(plain);
  }
  return out;
}
