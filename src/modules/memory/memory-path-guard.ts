import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { collectionFileStat } from './collection-sync';
import { displayPath, MemoryCollection, relativeInCollection } from './memory-collections';

export type ResolvedMemoryPath =
  | { status: 'ok'; file: string; collection: MemoryCollection; display: string }
  | { status: 'forbidden'; error: string }
  | { status: 'not_found'; error: string };

const OUTSIDE = "path is outside this agent's memory collections";

/**
 * Confines memory_get to the files the agent could find with memory_search: a path is accepted only when
 * it lies in one of the agent's own collections, matches that collection's pattern, is not hidden, and
 * still lies inside the collection once symlinks are resolved. `..` segments are refused outright (there is
 * no legitimate use for them), absolute paths must point into a collection, and a relative path is tried as
 * `<collection name>/<path>` and then relative to the workspace (the two forms memory_search returns).
 */
export async function resolveMemoryPath(
  input: string,
  workspace: string,
  collections: readonly MemoryCollection[],
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
      if (await collectionFileStat(c, candidate)) {
        return { status: 'ok', file: candidate, collection: c, display: displayPath(workspace, c, rel) };
      }
      const exists = await fs.lstat(candidate).then(
        () => true,
        () => false,
      );
      // Present but not a regular file inside the collection once resolved: a symlink out, or a directory.
      if (exists) refused ??= { status: 'forbidden', error: `${OUTSIDE} (it does not resolve to a file inside them)` };
      else missing ??= { status: 'not_found', error: `no file ${raw} in this agent's memory` };
    }
  }
  return refused ?? missing ?? { status: 'forbidden', error: OUTSIDE };
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

/** Lines `from`..`from+lines-1` (1-based; all remaining lines when `lines` is unset), capped at MAX_GET_CHARS. */
export async function readLines(file: string, from = 1, lines?: number): Promise<MemoryFileSlice> {
  const all = (await fs.readFile(file, 'utf8')).split(/\r?\n/);
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
