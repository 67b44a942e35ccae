/**
 * How deeply arrays and objects nest in a parsed JSON value: `1` is `{}` or `[1, 2]`, `2` is `{"a": []}`, a
 * scalar is `0`. The walks keep their own stack, because the values they are for are the ones too deep for
 * code that recurses (class-transformer, class-validator, JSON.stringify); they stop as soon as `limit` is
 * passed. Parents are linked rather than paths copied, so a value within the limit costs no path at all.
 */

type Key = string | number;

interface Frame {
  node: object;
  depth: number;
  key?: Key;
  parent?: Frame;
}

/**
 * Where the first (in document order) object or array deeper than `limit` sits, as path segments; undefined
 * when there is none. `at` is where `value` itself sits in a larger document: its segments count as levels.
 */
export function firstPathDeeperThan(value: unknown, limit: number, at: readonly Key[] = []): Key[] | undefined {
  const stack: Frame[] = [];
  if (isContainer(value)) stack.push({ node: value, depth: at.length + 1 });
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    if (frame.depth > limit) return [...at, ...keysTo(frame)];
    const node = frame.node as Record<string, unknown> & unknown[];
    const keys: Key[] = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    // Last child first onto the stack, so the first deep branch found is the first in the document.
    for (let i = keys.length - 1; i >= 0; i--) {
      const child: unknown = node[keys[i] as number];
      if (isContainer(child)) stack.push({ node: child, depth: frame.depth + 1, key: keys[i], parent: frame });
    }
  }
  return undefined;
}

export function jsonDepthExceeds(value: unknown, limit: number): boolean {
  return firstPathDeeperThan(value, limit) !== undefined;
}

function keysTo(frame: Frame): Key[] {
  const keys: Key[] = [];
  for (let f: Frame | undefined = frame; f?.key !== undefined; f = f.parent) keys.push(f.key);
  return keys.reverse();
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}
