/**
 * How deeply arrays and objects nest in a parsed JSON value: `1` is `{}` or `[1, 2]`, `2` is `{"a": []}`, a
 * scalar is `0`. Walks with its own stack, because the values it is for are the ones too deep for code
 * that recurses (class-transformer, class-validator, JSON.stringify): it stops as soon as `limit` is passed.
 */
export function jsonDepthExceeds(value: unknown, limit: number): boolean {
  const stack: Array<{ node: object; depth: number }> = [];
  if (value !== null && typeof value === 'object') stack.push({ node: value, depth: 1 });
  while (stack.length) {
    const { node, depth } = stack.pop()!;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push({ node: child as object, depth: depth + 1 });
    }
  }
  return false;
}
