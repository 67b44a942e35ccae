import fc from 'fast-check';
import { propertyParameters } from '../../test/support/property-runs';
import { isCanonicalAgentId, normalizeAgentId } from './agent-id';

describe('normalizeAgentId', () => {
  it.each([
    ['Main', 'main'],
    ['  coding ', 'coding'],
    ['', 'main'],
    [undefined, 'main'],
    ['Code Bot!', 'code-bot'],
    ['--weird__id--', 'weird__id'],
    ['客服', 'main'],
    ['support_2', 'support_2'],
    ['_ops', 'ops'],
    ['__proto__', 'proto__'],
    ['_-_x', 'x'],
    ['___', 'main'],
    ['a'.repeat(70), 'a'.repeat(64)],
    ['x y'.repeat(30), 'x-y'.repeat(30).slice(0, 64).replace(/-+$/, '')],
  ])('%p -> %p', (input, expected) => {
    expect(normalizeAgentId(input)).toBe(expected);
  });

  it('cuts an over-long valid-looking id after cleaning and never ends with a dash', () => {
    const id = normalizeAgentId(`${'b'.repeat(63)} c`);
    expect(id.length).toBeLessThanOrEqual(64);
    expect(id.endsWith('-')).toBe(false);
  });

  it('always gives a canonical id (one every session key accepts), and leaves canonical ids alone', () => {
    const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 80 }), fc.stringMatching(/^[ _A-Za-z0-9-]{0,70}$/));
    fc.assert(
      fc.property(anyText, (raw) => {
        const id = normalizeAgentId(raw);
        expect(isCanonicalAgentId(id)).toBe(true);
        expect(normalizeAgentId(id)).toBe(id);
      }),
      propertyParameters(),
    );
  });
});
