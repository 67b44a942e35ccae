import { firstPathDeeperThan, jsonDepthExceeds } from './json-depth';

/** `[[[…]]]` nested `n` deep, built without recursion. */
function nestedArrays(n: number): unknown {
  let v: unknown = [];
  for (let i = 1; i < n; i++) v = [v];
  return v;
}

describe('jsonDepthExceeds', () => {
  it('counts each array or object level; scalars add none', () => {
    expect(jsonDepthExceeds('text', 0)).toBe(false);
    expect(jsonDepthExceeds(null, 0)).toBe(false);
    expect(jsonDepthExceeds({}, 0)).toBe(true);
    expect(jsonDepthExceeds({ a: 1, b: 'x', c: null }, 1)).toBe(false);
    expect(jsonDepthExceeds({ a: [] }, 1)).toBe(true);
    expect(jsonDepthExceeds({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(jsonDepthExceeds({ a: [{ b: 1 }] }, 2)).toBe(true);
  });

  it('finds the deep branch among shallow siblings', () => {
    expect(jsonDepthExceeds({ flat: 1, list: [1, 2, 3], deep: nestedArrays(10) }, 11)).toBe(false);
    expect(jsonDepthExceeds({ flat: 1, list: [1, 2, 3], deep: nestedArrays(10) }, 10)).toBe(true);
  });

  it('handles nesting far deeper than the call stack allows', () => {
    const deep = JSON.parse(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`) as unknown;
    expect(jsonDepthExceeds(deep, 64)).toBe(true);
    expect(jsonDepthExceeds(nestedArrays(100_000), 100_000)).toBe(false);
  });
});

describe('firstPathDeeperThan', () => {
  it('names the first too-deep branch in document order, counting the levels of `at`', () => {
    const doc = { a: { b: 1 }, c: [{ d: {} }, { e: {} }] };
    expect(firstPathDeeperThan(doc, 3)).toEqual(['c', 0, 'd']);
    expect(firstPathDeeperThan(doc, 4)).toBeUndefined();
    expect(firstPathDeeperThan(doc, 4, ['x'])).toEqual(['x', 'c', 0, 'd']);
  });
});
