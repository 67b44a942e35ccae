import type { Logger } from '@nestjs/common';
import type { Embedder, Reranker } from './embedder.port';
import { Candidate, ftsQuery, ftsTerms, FusedHit, fuseCandidates, queryTerms, snippet } from './hybrid-rank';
import { displayPath, MemoryCollection } from './memory-collections';
import type { MemoryIndex } from './memory-index.port';
import { modelSimilarities } from './model-rescore';

export type SearchMode = 'hybrid' | 'keyword' | 'vector';

export interface SearchOptions {
  maxResults: number;
  /** Results below this relevance are dropped [0: none]; the gateway passes memory.qmd.limits.minScore. */
  minScore?: number;
  maxSnippetChars: number;
  /** Adds `citation: "path#Lstart-Lend"` to every hit (memory.citations: "on"). */
  citations?: boolean;
  /** `hybrid` [default]: both lists fused; the others consult one list (benchmarks, evaluation). */
  mode?: SearchMode;
}

/** One memory_search result (docs/memory.md#memory_search-query-maxresults-minscore). */
export interface SearchHit {
  collection: string;
  path: string;
  startLine: number;
  endLine: number;
  score: number;
  snippet: string;
  /** `path#Lstart-Lend`, with memory.citations "on". */
  citation?: string;
}

/** How deep each list is read before fusion: enough that a chunk ranked well in only one list survives. */
const MIN_CANDIDATES = 50;

/**
 * Hybrid search over one agent's index: BM25 keyword list and cosine vector list (each restricted to the
 * agent's current collections), each candidate scored by its keyword coverage and cosine similarity
 * (hybrid-rank.ts#relevance), one result per chunk and per cited range.
 */
export class MemorySearcher {
  constructor(
    private readonly index: MemoryIndex,
    private readonly embedder: Embedder | undefined,
    private readonly logger?: Pick<Logger, 'warn'>,
  ) {}

  async search(query: string, collections: readonly MemoryCollection[], workspace: string, options: SearchOptions): Promise<SearchHit[]> {
    const keys = collections.map((c) => c.key);
    if (!keys.length || !query.trim()) return [];
    const mode = options.mode ?? 'hybrid';
    const depth = Math.max(MIN_CANDIDATES, options.maxResults * 5);
    const terms = mode === 'vector' ? [] : ftsTerms(query);
    const fts = mode === 'vector' ? undefined : ftsQuery(query);
    const keyword = fts ? this.index.keywordSearch(fts, keys, depth) : [];
    // bundled-static once every chunk has the model's vector too: the model's own list, nothing to rescore.
    const embedder = this.upgraded() ?? this.embedder;
    const vector = mode === 'keyword' ? undefined : await this.vectorList(embedder, query, keys, depth);
    const candidates = new Map<number, Candidate>();
    const at = (id: number) => candidates.get(id) ?? candidates.set(id, { id }).get(id)!;
    keyword.forEach((id, i) => (at(id).keywordRank = i + 1));
    vector?.hits.forEach((h, i) => Object.assign(at(h.id), { vectorRank: i + 1, similarity: h.score }));
    const ids = [...candidates.keys()];
    if (terms.length) {
      const matched = this.index.termMatches(terms, ids);
      for (const c of candidates.values()) c.coverage = (matched.get(c.id) ?? 0) / terms.length;
    }
    if (vector) {
      // A keyword hit outside the vector list's top still has a similarity, if it has a vector.
      const missing = ids.filter((id) => candidates.get(id)!.similarity === undefined);
      for (const [id, score] of this.index.vectorScores(vector.query, vector.fingerprint, missing)) candidates.get(id)!.similarity = score;
    }
    let fused = fuseCandidates([...candidates.values()]);
    if (vector && embedder?.reranker) fused = await this.rerank(embedder.reranker, query, fused, candidates, options.maxResults);
    return this.materialize(fused, query, collections, workspace, options);
  }

  /**
   * The best candidates rescored with the reranker's similarities (same relevance formula, same keyword
   * coverage); the rest are dropped, as their scores are on the other model's scale. If the reranker fails,
   * the vector list's own ranking is kept.
   */
  private async rerank(
    reranker: Reranker,
    query: string,
    fused: FusedHit[],
    candidates: ReadonlyMap<number, Candidate>,
    maxResults: number,
  ): Promise<FusedHit[]> {
    // At least maxResults, so every result has a score on one scale. On the paraphrase set the static
    // vectors' top 10 held the target of 19 of 20 queries (top 8: 18, top 5: 17).
    const depth = reranker.depth();
    const top = depth > 0 ? fused.slice(0, Math.max(depth, maxResults)) : [];
    if (!top.length) return fused;
    const rows = this.index.chunks(top.map((h) => h.id));
    let similarities: number[];
    try {
      similarities = reranker.model
        ? await modelSimilarities(this.index, reranker.model, query, rows)
        : await reranker.similarities(
            query,
            rows.map((r) => r.text),
          );
    } catch (err) {
      this.logger?.warn(`reranking failed, keeping the vector ranking: ${(err as Error).message}`);
      return fused;
    }
    const rescored = rows.map((r, i) => ({ ...candidates.get(r.id)!, similarity: similarities[i] }));
    return fuseCandidates(rescored);
  }

  /**
   * The reranker's model, when it rescores (depth > 0), stores its vectors, and every chunk of the index has one
   * (the background upgrade is done): its vector list is then what the rescoring would have computed.
   */
  private upgraded(): Embedder | undefined {
    const reranker = this.embedder?.reranker;
    if (!reranker?.model || reranker.depth() <= 0) return undefined;
    return this.index.missingVectors(reranker.model.fingerprint) === 0 ? reranker.model : undefined;
  }

  /** The vector list, or undefined when there is no embedder, no vector yet, or the embedder fails. */
  private async vectorList(
    embedder: Embedder | undefined,
    query: string,
    keys: string[],
    depth: number,
  ): Promise<{ query: Float32Array; fingerprint: string; hits: Array<{ id: number; score: number }> } | undefined> {
    if (!embedder) return undefined;
    let vector: Float32Array;
    try {
      [vector] = await embedder.embed([query], { priority: 'query' });
    } catch (err) {
      this.logger?.warn(`query embedding failed, searching by keyword only: ${(err as Error).message}`);
      return undefined;
    }
    const hits = this.index.vectorSearch(vector, embedder.fingerprint, keys, depth);
    return hits && { query: vector, fingerprint: embedder.fingerprint, hits };
  }

  private materialize(
    fused: ReadonlyArray<{ id: number; score: number }>,
    query: string,
    collections: readonly MemoryCollection[],
    workspace: string,
    options: SearchOptions,
  ): SearchHit[] {
    const minScore = options.minScore ?? 0;
    const wanted = fused.filter((h) => h.score >= minScore);
    const byKey = new Map(collections.map((c) => [c.key, c]));
    const scores = new Map(wanted.map((h) => [h.id, h.score]));
    const terms = queryTerms(query);
    const seen = new Set<string>();
    const hits: SearchHit[] = [];
    // Rows come back in fused order; read a few more than needed since duplicates are skipped.
    for (const row of this.index.chunks(wanted.slice(0, options.maxResults * 3).map((h) => h.id))) {
      const c = byKey.get(row.collectionKey);
      if (!c) continue;
      const cited = `${row.path}:${row.startLine}-${row.endLine}`;
      if (seen.has(cited)) continue; // the same file reached through two overlapping collections
      seen.add(cited);
      const hit: SearchHit = {
        collection: c.name,
        path: displayPath(workspace, c, row.rel),
        startLine: row.startLine,
        endLine: row.endLine,
        score: round(scores.get(row.id) ?? 0),
        snippet: snippet(row.text, terms, options.maxSnippetChars),
      };
      if (options.citations) hit.citation = `${hit.path}#L${hit.startLine}-L${hit.endLine}`;
      hits.push(hit);
      if (hits.length >= options.maxResults) break;
    }
    return hits;
  }
}

function round(score: number): number {
  return Math.round(score * 10_000) / 10_000;
}
