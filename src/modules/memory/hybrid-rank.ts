/**
 * Ranking pieces of hybrid search: turning free text into a safe FTS5 query, the relevance of a chunk from
 * its keyword coverage and cosine similarity, and snippets. Pure functions; the index supplies the lists.
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
  const terms = ftsTerms(query);
  return terms.length ? terms.join(' OR ') : undefined;
}

/** Each query term quoted as one FTS5 MATCH term. */
export function ftsTerms(query: string): string[] {
  return queryTerms(query).map((t) => `"${t.replace(/"/g, '""')}"`);
}

/** One chunk found by either list, with the evidence for it. */
export interface Candidate {
  id: number;
  /** Share of the query's terms the chunk contains (0–1); undefined when the keyword list was not consulted. */
  coverage?: number;
  /** Cosine similarity with the query; undefined when the chunk has no vector (or no vector list was run). */
  similarity?: number;
  /** 1-based positions in the lists that found it (tie-break). */
  keywordRank?: number;
  vectorRank?: number;
}

export interface FusedHit {
  id: number;
  /** Absolute relevance in [0, 1] (docs/memory.md#how-search-ranks), comparable across queries. */
  score: number;
}

/**
 * How relevant a chunk is, on a scale that means the same for every query (so a threshold can say
 * "nothing matches"): its cosine similarity, raised halfway toward its keyword coverage when it holds more
 * of the query's words than its similarity says; the coverage alone for a chunk without a vector, the
 * similarity alone when the query had no searchable word.
 */
export function relevance(coverage: number | undefined, similarity: number | undefined): number {
  const sim = similarity === undefined ? undefined : Math.max(0, Math.min(1, similarity));
  if (sim === undefined) return coverage ?? 0;
  if (coverage === undefined) return sim;
  return Math.max(sim, (coverage + sim) / 2);
}

/**
 * Best first by relevance; equal relevance is broken by reciprocal rank fusion of the two lists (k = 60),
 * then by id, so the order is stable.
 */
export function fuseCandidates(candidates: readonly Candidate[], k = RRF_K): FusedHit[] {
  const rrf = (c: Candidate) => (c.keywordRank ? 1 / (k + c.keywordRank) : 0) + (c.vectorRank ? 1 / (k + c.vectorRank) : 0);
  return candidates
    .map((c) => ({ id: c.id, score: relevance(c.coverage, c.similarity), tie: rrf(c) }))
    .sort((a, b) => b.score - a.score || b.tie - a.tie || a.id - b.id)
    .map(({ id, score }) => ({ id, score }));
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
