import { ftsQuery, queryTerms, reciprocalRankFusion, snippet } from './hybrid-rank';

describe('hybrid ranking', () => {
  it('builds a quoted OR query without stopwords, so user text is never FTS syntax', () => {
    expect(queryTerms('What did we say about the Boiler code?')).toEqual(['say', 'boiler', 'code']);
    expect(ftsQuery('NEAR(ab cd) OR "xy" AND title:yz*')).toBe('"near" OR "ab" OR "cd" OR "xy" OR "title" OR "yz"');
    expect(queryTerms("the kid's room 4")).toEqual(['kid', 'room', '4']);
    expect(ftsQuery('the of and')).toBeUndefined();
  });

  it('fuses ranks with k = 60 and normalizes to [0, 1]', () => {
    const fused = reciprocalRankFusion([
      [1, 2, 3],
      [2, 4],
    ]);
    expect(fused.map((h) => h.id)).toEqual([2, 1, 4, 3]);
    const byId = new Map(fused.map((h) => [h.id, h.score]));
    const best = 2 / 61;
    expect(byId.get(2)).toBeCloseTo((1 / 62 + 1 / 61) / best, 10);
    expect(byId.get(1)).toBeCloseTo(1 / 61 / best, 10);
    expect(fused.every((h) => h.score > 0 && h.score <= 1)).toBe(true);
  });

  it('gives 1 to a chunk first in every list, 0.5 to one first in only one of two', () => {
    expect(reciprocalRankFusion([[7], [7]])[0].score).toBe(1);
    expect(reciprocalRankFusion([[7], []])[0].score).toBeCloseTo(0.5, 10);
    expect(reciprocalRankFusion([[7]])[0].score).toBe(1);
    expect(reciprocalRankFusion([])).toEqual([]);
  });

  it('deduplicates: one entry per chunk id', () => {
    const fused = reciprocalRankFusion([[1, 2], [2, 1], [1]]);
    expect(fused.map((h) => h.id).sort()).toEqual([1, 2]);
  });

  it('cuts snippets to the limit and moves the window to the first matching line', () => {
    const text = `${'intro words '.repeat(80)}\nThe boiler code is 4471 and the key is under the mat.`;
    const s = snippet(text, ['boiler'], 100);
    expect(s.length).toBeLessThanOrEqual(100);
    expect(s).toContain('boiler code is 4471');
    expect(s.startsWith('…')).toBe(true);
    expect(snippet('short', ['x'], 100)).toBe('short');
    expect(snippet('a '.repeat(200), [], 50).length).toBeLessThanOrEqual(50);
  });
});
