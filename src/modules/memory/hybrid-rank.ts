/**
 * Ranking pieces of hybrid search: turning free text into a safe FTS5 query, reciprocal rank fusion of the
 * keyword and vector lists, and snippets. Pure functions; the index supplies the ranked lists.
 */
export const RRF_K = 60;

/**
 * Words that carry no topic. Dropping them keeps a question like "what did we say about the boiler" from
 * matching every chunk on "what" and "the", which would flood the keyword list with noise.
 */
const STOPWORDS = new Set(
  (
    'a about above after again all am an and any are as at be because been before being below between both but by can ' +
    'could did do does doing down during each few for from further had has have having he her here hers him his how i ' +
    'if in into is it its itself just me more most my no nor not now of off on once only or other our ours out over ' +
    'own same she should so some such than that the their theirs them then there these they this those through to too ' +
    'under until up very was we were what when where which while who whom why will with would you your yours'
  ).split(' '),
);
const MAX_QUERY_TERMS = 32;

/**
 * Distinct lowercase words of the query minus stopwords and single letters (the `s` of "kid's" would
 * otherwise match every possessive in the index). Single digits stay: "room 4" is a real search.
 */
export function queryTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  const useful = words.filter((w) => !STOPWORDS.has(w) && (w.length > 1 || /\p{N}/u.test(w)));
  return [...new Set(useful)].slice(0, MAX_QUERY_TERMS);
}

/**
 * An FTS5 MATCH expression: every term quoted (so user text can never be FTS syntax) and OR-ed, leaving the
 * ranking to BM25. Undefined when nothing searchable is left.
 */
export function ftsQuery(query: string): string | undefined {
  const terms = queryTerms(query);
  return terms.length ? terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ') : undefined;
}

export interface FusedHit {
  id: number;
  /** In [0, 1]: 1 = first in every list that was consulted. */
  score: number;
}

/**
 * Reciprocal rank fusion: score(d) = Σ 1/(k + rank) over the lists containing d (rank 1-based), divided by
 * the best possible sum (first everywhere), so scores lie in [0, 1] and mean the same whatever the mode.
 * `lists` holds only the lists that were consulted; an empty list still counts (nothing matched there).
 */
export function reciprocalRankFusion(lists: ReadonlyArray<readonly number[]>, k = RRF_K): FusedHit[] {
  if (!lists.length) return [];
  const sums = new Map<number, number>();
  for (const list of lists) {
    list.forEach((id, i) => sums.set(id, (sums.get(id) ?? 0) + 1 / (k + i + 1)));
  }
  const best = lists.length / (k + 1);
  return [...sums].map(([id, sum]) => ({ id, score: Math.min(1, sum / best) })).sort((a, b) => b.score - a.score || a.id - b.id);
}

/**
 * At most `max` chars of the chunk, starting at the line with the first query term when it would otherwise
 * fall outside the window, cut at a word boundary with `…` marking what was left out.
 */
export function snippet(text: string, terms: readonly string[], max: number): string {
  if (text.length <= max) return text;
  const lower = text.toLowerCase();
  const positions = terms.map((t) => lower.indexOf(t)).filter((p) => p >= 0);
  let start = 0;
  if (positions.length) {
    const first = Math.min(...positions);
    if (first > max * 0.6) start = Math.max(0, text.lastIndexOf('\n', first) + 1);
    if (first - start > max * 0.6) start = Math.max(0, text.lastIndexOf(' ', first - Math.floor(max / 4)) + 1);
  }
  const prefix = start > 0 ? '…' : '';
  const budget = max - prefix.length - 1;
  let body = text.slice(start, start + budget);
  if (start + budget < text.length) {
    const space = body.lastIndexOf(' ');
    if (space > budget * 0.6) body = body.slice(0, space);
    return `${prefix}${body.trimEnd()}…`;
  }
  return `${prefix}${body}`.slice(0, max);
}
