import { stableJson } from './stable-json';

describe('stableJson', () => {
  it('is independent of key order at every depth, so equal configs hash equally', () => {
    expect(stableJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: 2 } })).toBe(stableJson({ a: { c: 2, d: [1, { y: 2, z: 1 }] }, b: 1 }));
    expect(stableJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
  });

  it('keeps array order (order is meaningful: bindings, allow lists)', () => {
    expect(stableJson([2, 1])).not.toBe(stableJson([1, 2]));
  });

  it('writes Maps as objects and drops undefined fields', () => {
    expect(
      stableJson({
        m: new Map([
          ['y', 1],
          ['x', 2],
        ]),
        u: undefined,
      }),
    ).toBe('{"m":{"x":2,"y":1}}');
  });
});
