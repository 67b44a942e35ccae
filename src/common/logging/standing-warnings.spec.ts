import { StandingWarnings } from './standing-warnings';

describe('StandingWarnings', () => {
  it('reports a warning when it appears and when it clears, not while it stays', () => {
    const w = new StandingWarnings();
    expect(w.update(['a', 'b'])).toEqual({ appeared: ['a', 'b'], cleared: [] });
    expect(w.update(['a', 'b'])).toEqual({ appeared: [], cleared: [] });
    expect(w.update(['b', 'c'])).toEqual({ appeared: ['c'], cleared: ['a'] });
    expect(w.update([])).toEqual({ appeared: [], cleared: ['b', 'c'] });
    expect(w.update(['a'])).toEqual({ appeared: ['a'], cleared: [] });
  });
});
