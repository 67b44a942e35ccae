import * as path from 'node:path';
import type { CollectionSources, SourceDocument } from './collection-source';
import { displayPath, MemoryCollection, relativeInCollection } from './memory-collections';

export type ResolvedMemoryPath =
  | { status: 'ok'; file: string; collection: MemoryCollection; document: SourceDocument; display: string }
  | { status: 'forbidden'; error: string }
  | { status: 'not_found'; error: string };

const OUTSIDE = "path is outside this agent's memory collections";

/**
 * Confines memory_get to the documents the agent could find with memory_search: a path is accepted only
 * when it lies in one of the agent's own collections, matches that collection's pattern, is not hidden, and
 * is a document of that collection's source — for a directory, a file still inside it once symlinks are
 * resolved; for a session dir, a session of that agent in the store. `..` segments are refused outright
 * (there is no legitimate use for them), absolute paths must point into a collection, and a relative path
 * is tried as `<collection name>/<path>` and then relative to the workspace (the two forms memory_search
 * returns).
 */
export async function resolveMemoryPath(
  input: string,
  workspace: string,
  collections: readonly MemoryCollection[],
  sources: CollectionSources,
): Promise<ResolvedMemoryPath> {
  const raw = input.trim();
  if (!raw || raw.includes('\u0000')) return { status: 'forbidden', error: 'path is empty or malformed' };
  if (raw.split(/[\\/]+/).includes('..')) return { status: 'forbidden', error: 'path must not contain ".." segments' };
  let refused: ResolvedMemoryPath | undefined;
  let missing: ResolvedMemoryPath | undefined;
  for (const candidate of candidates(raw, workspace, collections)) {
    for (const c of collections) {
      const rel = relativeInCollection(c, candidate);
      if (rel === undefined) continue;
      const found = await sources.for(c).lookup(c, candidate);
      if (found.status === 'ok') {
        return { status: 'ok', file: candidate, collection: c, document: found.document, display: displayPath(workspace, c, rel) };
      }
      if (found.status === 'blocked') refused ??= { status: 'forbidden', error: `${OUTSIDE} (it does not resolve to a file inside them)` };
      else missing ??= notFound(raw);
    }
  }
  return refused ?? missing ?? { status: 'forbidden', error: OUTSIDE };
}

/** Existence is only ever revealed inside the agent's own collections. */
export function notFound(raw: string): { status: 'not_found'; error: string } {
  return { status: 'not_found', error: `no file ${raw} in this agent's memory` };
}

function candidates(raw: string, workspace: string, collections: readonly MemoryCollection[]): string[] {
  if (path.isAbsolute(raw)) return [path.normalize(raw)];
  const out: string[] = [];
  const [first, ...rest] = raw.split(/[\\/]+/);
  const named = collections.find((c) => c.name === first);
  if (named && rest.length) out.push(path.join(named.root, ...rest));
  out.push(path.resolve(workspace, raw));
  return out;
}

export interface MemoryFileSlice {
  text: string;
  from: number;
  to: number;
  totalLines: number;
  truncated: boolean;
}

/** Longest text memory_get returns in one call; ask again with `from` for the rest. */
export const MAX_GET_CHARS = 64 * 1024;

/** Lines `from`..`from+lines-1` of a document's text (1-based; all remaining lines when `lines` is unset), capped at MAX_GET_CHARS. */
export function sliceLines(source: string, from = 1, lines?: number): MemoryFileSlice {
  const all = source.split(/\r?\n/);
  if (all.length > 1 && all[all.length - 1] === '') all.pop();
  const start = Math.max(1, from);
  const wanted = all.slice(start - 1, lines === undefined ? undefined : start - 1 + lines);
  let text = wanted.join('\n');
  let count = wanted.length;
  let truncated = false;
  if (text.length > MAX_GET_CHARS) {
    truncated = true;
    text = text.slice(0, MAX_GET_CHARS);
    count = text.split('\n').length;
  }
  return { text, from: start, to: count ? start + count - 1 : start - 1, totalLines: all.length, truncated };
}
