import { editDistance, suggestClosest } from './did-you-mean';

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions, and a swapped pair as one edit', () => {
    expect(editDistance('model', 'model')).toBe(0);
    expect(editDistance('modle', 'model')).toBe(1); // transposition
    expect(editDistance('mode', 'model')).toBe(1);
    expect(editDistance('port', 'bort')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });
});

describe('suggestClosest', () => {
  const keys = ['model', 'workspace', 'memorySearch', 'sandbox', 'tools', 'identity'];

  it('suggests the closest key for a typo, ignoring case', () => {
    expect(suggestClosest('modle', keys)).toBe('model');
    expect(suggestClosest('WorkSpace', keys)).toBe('workspace');
    expect(suggestClosest('memorysearh', keys)).toBe('memorySearch');
  });

  it('suggests nothing when no key is close enough to be a typo', () => {
    expect(suggestClosest('zzzzzzzz', keys)).toBeUndefined();
    expect(suggestClosest('x', [])).toBeUndefined();
  });

  it('allows more edits for longer words (a third of the length, at least two)', () => {
    expect(suggestClosest('ab', ['xy'])).toBe('xy'); // 2 edits, tolerance 2
    expect(suggestClosest('abc', ['xyz'])).toBeUndefined(); // 3 edits, tolerance 2
    expect(suggestClosest('agentToAgnet', ['agentToAgent'])).toBe('agentToAgent');
  });
});
