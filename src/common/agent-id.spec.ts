import { normalizeAgentId } from './agent-id';

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
});
