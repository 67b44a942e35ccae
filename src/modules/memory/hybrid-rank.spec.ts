import { ftsQuery, fuseCandidates, queryTerms, relevance, snippet } from './hybrid-rank';

describe('hybrid ranking', () => {
  it('builds a quoted OR query without stopwords, so user text is never FTS syntax', () => {
    expect(queryTerms('What did we say about the Boiler code?')).toEqual(['say', 'boiler', 'code']);
    expect(ftsQuery('NEAR(ab cd) OR "xy" AND title:yz*')).toBe('"near" OR "ab" OR "cd" OR "xy" OR "title" OR "yz"');
    expect(queryTerms("the kid's room 4")).toEqual(['kid', 'room', '4']);
    expect(ftsQuery('the of and')).toBeUndefined();
  });

  it('scores a chunk by its cosine, raised halfway toward its keyword coverage when that is higher', () => {
    expect(relevance(0, 0.45)).toBeCloseTo(0.45, 10); // a paraphrase: no shared word
    expect(relevance(1, 0.6)).toBeCloseTo(0.8, 10); // every query word, similar meaning
    expect(relevance(0.5, 0.2)).toBeCloseTo(0.35, 10); // one incidental word of two, unrelated meaning
    expect(relevance(1, undefined)).toBe(1); // no vector (yet): the coverage alone
    expect(relevance(undefined, 0.3)).toBeCloseTo(0.3, 10); // no searchable word: the similarity alone
    expect(relevance(undefined, -0.2)).toBe(0);
    expect(relevance(undefined, undefined)).toBe(0);
  });

  it('orders by relevance, breaking ties by the ranks in both lists, one entry per chunk', () => {
    const fused = fuseCandidates([
      { id: 1, coverage: 1, similarity: 0.6, keywordRank: 2, vectorRank: 1 },
      { id: 2, coverage: 1, similarity: 0.6, keywordRank: 1, vectorRank: 1 },
      { id: 3, coverage: 0, similarity: 0.7, vectorRank: 3 },
      { id: 4, coverage: 0, similarity: 0.1, vectorRank: 4 },
    ]);
    expect(fused.map((h) => h.id)).toEqual([2, 1, 3, 4]);
    expect(fused[0].score).toBeCloseTo(0.8, 10);
    expect(fused.every((h) => h.score >= 0 && h.score <= 1)).toBe(true);
    expect(fuseCandidates([])).toEqual([]);
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
