import { ConfigIssue, toDottedPath } from './config-issue';

/**
 * How deeply objects and arrays may nest in the merged config. The deepest key of the schema sits eight
 * levels down (`agents.list[0].memorySearch.qmd.extraCollections[0].path`); the limit leaves ample room and
 * keeps every later step, which walks the document recursively, far away from the end of the call stack.
 */
export const MAX_NESTING_DEPTH = 64;

/**
 * The first object or array nested deeper than MAX_NESTING_DEPTH, as an issue at its dotted path; undefined
 * when there is none. The root object is level 1. `at` is where `value` sits in the merged document (an
 * included file's content sits at its `$include`), so its segments count toward the depth. The walk keeps
 * its own stack: the point is to inspect documents too deep for recursion.
 */
export function nestingIssue(value: unknown, at: ReadonlyArray<string | number> = []): ConfigIssue | undefined {
  const pending: Array<{ node: object; segs: ReadonlyArray<string | number> }> = [];
  if (isContainer(value)) pending.push({ node: value, segs: at });
  for (let item = pending.pop(); item; item = pending.pop()) {
    const { node, segs } = item;
    if (segs.length >= MAX_NESTING_DEPTH) {
      return { path: toDottedPath(segs), message: `nested too deeply: objects and arrays may nest at most ${MAX_NESTING_DEPTH} levels` };
    }
    const children: Array<[string | number, unknown]> = Array.isArray(node) ? node.map((v, i) => [i, v]) : Object.entries(node);
    // Reversed, so the first child is looked at first and the reported path is the first one in the file.
    for (let i = children.length - 1; i >= 0; i--) {
      const [key, child] = children[i];
      if (isContainer(child)) pending.push({ node: child, segs: [...segs, key] });
    }
  }
  return undefined;
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}
