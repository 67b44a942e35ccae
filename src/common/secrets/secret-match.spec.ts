import { timingSafeEqual } from 'node:crypto';
import { findBySecret, secretDigest, secretIndex, secretIndexPerSource } from './secret-match';

jest.mock('node:crypto', () => {
  const actual = jest.requireActual<typeof import('node:crypto')>('node:crypto');
  return { ...actual, timingSafeEqual: jest.fn(actual.timingSafeEqual) };
});

describe('secret matching', () => {
  const index = secretIndex([
    { secret: 'first-secret-0001', value: 'first' },
    { secret: undefined, value: 'unset' },
    { secret: '', value: 'empty' },
    { secret: 'second-secret-002', value: 'second' },
  ]);

  it('digests with SHA-256 (32 bytes, whatever the secret length)', () => {
    expect(secretDigest('x')).toHaveLength(32);
    expect(secretDigest('x'.repeat(1000))).toHaveLength(32);
    expect(secretDigest('abc').toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('leaves unset and empty secrets out of the index', () => {
    expect(index.map((e) => e.value)).toEqual(['first', 'second']);
  });

  it('finds the value whose secret matches', () => {
    expect(findBySecret('first-secret-0001', index)).toBe('first');
    expect(findBySecret('second-secret-002', index)).toBe('second');
  });

  it('finds nothing for a near miss, a prefix, an empty or absent value', () => {
    expect(findBySecret('first-secret-0002', index)).toBeUndefined();
    expect(findBySecret('first-secret', index)).toBeUndefined();
    expect(findBySecret('', index)).toBeUndefined();
    expect(findBySecret(undefined, index)).toBeUndefined();
    expect(findBySecret('undefined', index)).toBeUndefined();
  });

  it('returns the first match when two candidates share a secret, even a falsy value', () => {
    const twins = secretIndex([
      { secret: 'same', value: '' },
      { secret: 'same', value: 'later' },
    ]);
    expect(findBySecret('same', twins)).toBe('');
  });

  it('costs one lookup whatever the number of candidates, and confirms a match with one timing-safe comparison', () => {
    const compare = timingSafeEqual as jest.MockedFunction<typeof timingSafeEqual>;
    const many = secretIndex(Array.from({ length: 500 }, (_, i) => ({ secret: `peer-secret-${i}`, value: i })));
    compare.mockClear();
    expect(findBySecret('peer-secret-499', many)).toBe(499);
    expect(compare).toHaveBeenCalledTimes(1);
    compare.mockClear();
    expect(findBySecret('nobody', many)).toBeUndefined();
    expect(compare).not.toHaveBeenCalled();
  });

  it('builds one index per source object and a new one for a new object', () => {
    const build = jest.fn((source: { token: string }) => [{ secret: source.token, value: 'x' }]);
    const indexOf = secretIndexPerSource(build);
    const a = { token: 't' };
    expect(indexOf(a)).toBe(indexOf(a));
    expect(build).toHaveBeenCalledTimes(1);
    expect(indexOf({ token: 't' })).not.toBe(indexOf(a));
    expect(build).toHaveBeenCalledTimes(2);
  });
});
