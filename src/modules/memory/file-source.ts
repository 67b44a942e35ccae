import { promises as fs, Stats } from 'node:fs';
import * as path from 'node:path';
import type { ChangeWatcher, CollectionSource, DocumentLookup, DocumentRead, SourceDocument, WatchOptions } from './collection-source';
import { CollectionWatcher } from './collection-watcher';
import { globDepth } from './glob-pattern';
import { isInsideDir, MemoryCollection, relativeInCollection } from './memory-collections';

/** A collection that is a directory: its documents are the files under the root that match the pattern. */
export class FileSource implements CollectionSource {
  async list(c: MemoryCollection): Promise<Map<string, SourceDocument>> {
    const out = new Map<string, SourceDocument>();
    for (const [file, stat] of await listCollectionFiles(c)) out.set(file, fileDocument(file, stat));
    return out;
  }

  async lookup(c: MemoryCollection, file: string): Promise<DocumentLookup> {
    if (relativeInCollection(c, file) === undefined) return { status: 'missing' };
    const stat = await collectionFileStat(c, file);
    if (stat) return { status: 'ok', document: fileDocument(file, stat) };
    const exists = await fs.lstat(file).then(
      () => true,
      () => false,
    );
    // Present but not a regular file inside the collection once resolved: a symlink out, or a directory.
    return { status: exists ? 'blocked' : 'missing' };
  }

  async read(_c: MemoryCollection, document: SourceDocument, maxBytes = Infinity): Promise<DocumentRead> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(document.path, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'gone' };
      throw err;
    }
    try {
      // The size of the file actually opened: it may have grown since it was listed.
      if ((await handle.stat()).size > maxBytes) return { status: 'too-large' };
      return { status: 'ok', text: await handle.readFile('utf8') };
    } finally {
      await handle.close();
    }
  }

  watcher(collections: readonly MemoryCollection[], options: WatchOptions): ChangeWatcher {
    return new CollectionWatcher(collections, options);
  }
}

function fileDocument(file: string, stat: Stats): SourceDocument {
  return { path: file, size: stat.size, mtimeMs: stat.mtimeMs };
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
