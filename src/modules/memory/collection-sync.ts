import { createHash } from 'node:crypto';
import { promises as fs, Stats } from 'node:fs';
import * as path from 'node:path';
import { chunkFile } from './chunker';
import { globDepth } from './glob-pattern';
import { fileKind, MemoryCollection, relativeInCollection } from './memory-collections';
import type { MemoryIndex } from './memory-index.port';

/** Larger files are skipped (and reported): memory is notes and transcripts, not data dumps. */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;

export interface SyncCounts {
  indexed: number;
  unchanged: number;
  removed: number;
  skipped: string[];
}

export const emptyCounts = (): SyncCounts => ({ indexed: 0, unchanged: 0, removed: 0, skipped: [] });

/** Adds `more` into `into`. */
export function addCounts(into: SyncCounts, more: SyncCounts): void {
  into.indexed += more.indexed;
  into.unchanged += more.unchanged;
  into.removed += more.removed;
  into.skipped.push(...more.skipped);
}

/**
 * Brings one collection in line with the disk: new and changed files are (re)chunked, unchanged ones
 * skipped (same size and mtime, or same content hash), files that left the collection removed. `force`
 * re-reads and re-chunks every file regardless of what the index remembers.
 */
export async function syncCollection(index: MemoryIndex, c: MemoryCollection, force = false): Promise<SyncCounts> {
  const counts = emptyCounts();
  const known = index.fileStates(c.key);
  const present = await listCollectionFiles(c);
  for (const [file, stat] of present) {
    addCounts(counts, await indexFile(index, c, file, stat, force ? undefined : known.get(file)));
  }
  for (const file of known.keys()) {
    if (!present.has(file) && index.removeFile(c.key, file)) counts.removed++;
  }
  return counts;
}

/** Re-checks one path after a change event: indexed if it belongs to the collection and exists, else removed. */
export async function syncPath(index: MemoryIndex, c: MemoryCollection, file: string): Promise<SyncCounts> {
  const counts = emptyCounts();
  const stat = relativeInCollection(c, file) !== undefined ? await collectionFileStat(c, file) : undefined;
  if (!stat) {
    if (index.removeFile(c.key, file)) counts.removed++;
    return counts;
  }
  addCounts(counts, await indexFile(index, c, file, stat, index.fileState(c.key, file)));
  return counts;
}

async function indexFile(
  index: MemoryIndex,
  c: MemoryCollection,
  file: string,
  stat: Stats,
  known: { hash: string; size: number; mtimeMs: number } | undefined,
): Promise<SyncCounts> {
  const counts = emptyCounts();
  if (known && known.size === stat.size && known.mtimeMs === stat.mtimeMs) {
    counts.unchanged++;
    return counts;
  }
  if (stat.size > MAX_FILE_BYTES) {
    counts.skipped.push(`${file}: larger than ${MAX_FILE_BYTES} bytes`);
    if (index.removeFile(c.key, file)) counts.removed++;
    return counts;
  }
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') counts.skipped.push(`${file}: ${(err as Error).message}`);
    if (index.removeFile(c.key, file)) counts.removed++;
    return counts;
  }
  const hash = createHash('sha256').update(text).digest('hex');
  if (known?.hash === hash) {
    index.touchFile(c.key, file, stat.size, stat.mtimeMs);
    counts.unchanged++;
    return counts;
  }
  const rel = relativeInCollection(c, file) as string;
  index.replaceFile(
    { collectionKey: c.key, collection: c.name, path: file, rel, hash, size: stat.size, mtimeMs: stat.mtimeMs },
    chunkFile(fileKind(file), text),
  );
  counts.indexed++;
  return counts;
}

/**
 * The files of a collection (absolute path → stat): under the root, matching the pattern, not hidden, and —
 * when reached through a symlink — still inside the root once resolved. A symlink pointing out of the
 * collection is neither indexed nor readable, whatever its name.
 */
export async function listCollectionFiles(c: MemoryCollection): Promise<Map<string, Stats>> {
  const out = new Map<string, Stats>();
  const realRoot = await fs.realpath(c.root).catch(() => undefined);
  if (!realRoot) return out;
  const maxDepth = globDepth(c.pattern);
  const visited = new Set<string>([realRoot]);
  const walk = async (dir: string, depth: number): Promise<void> => {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      const stat = entry.isSymbolicLink() ? await confinedStat(realRoot, full) : await fs.stat(full).catch(() => undefined);
      if (!stat) continue;
      if (stat.isDirectory()) {
        if (maxDepth !== undefined && depth >= maxDepth) continue;
        const real = await fs.realpath(full).catch(() => full);
        if (visited.has(real)) continue; // a link back up the tree
        visited.add(real);
        await walk(full, depth + 1);
      } else if (stat.isFile() && relativeInCollection(c, full) !== undefined) {
        out.set(full, stat);
      }
    }
  };
  await walk(c.root, 0);
  return out;
}

/** stat of a file of the collection, or undefined when it is missing, not a file, or resolves outside the root. */
export async function collectionFileStat(c: MemoryCollection, file: string): Promise<Stats | undefined> {
  const realRoot = await fs.realpath(c.root).catch(() => undefined);
  if (!realRoot) return undefined;
  const stat = await confinedStat(realRoot, file);
  return stat?.isFile() ? stat : undefined;
}

async function confinedStat(realRoot: string, file: string): Promise<Stats | undefined> {
  const real = await fs.realpath(file).catch(() => undefined);
  if (!real || !isInsideDir(realRoot, real)) return undefined;
  return fs.stat(real).catch(() => undefined);
}

export function isInsideDir(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
