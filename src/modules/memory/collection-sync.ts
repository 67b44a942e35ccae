import { createHash } from 'node:crypto';
import { chunkFile } from './chunker';
import type { CollectionSource, DocumentRead, SourceDocument } from './collection-source';
import { fileKind, MemoryCollection, relativeInCollection } from './memory-collections';
import type { IndexedFileState, MemoryIndex } from './memory-index.port';

/** Larger documents are skipped (and reported): memory is notes and transcripts, not data dumps. */
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
 * Brings one collection in line with its source: new and changed documents are (re)chunked, unchanged ones
 * skipped (same stamp — size and mtime of a file, version of a session — or same content hash), documents
 * that left the collection removed. `force` re-reads and re-chunks every document regardless of what the
 * index remembers.
 */
export async function syncCollection(
  index: MemoryIndex,
  c: MemoryCollection,
  source: CollectionSource,
  force = false,
): Promise<SyncCounts> {
  const counts = emptyCounts();
  const known = index.fileStates(c.key);
  const present = await source.list(c);
  for (const document of present.values()) {
    addCounts(counts, await indexDocument(index, c, source, document, force ? undefined : known.get(document.path)));
  }
  for (const file of known.keys()) {
    if (!present.has(file) && index.removeFile(c.key, file)) counts.removed++;
  }
  return counts;
}

/** Re-checks one path after a change event: indexed if it is a document of the collection, else removed. */
export async function syncPath(index: MemoryIndex, c: MemoryCollection, source: CollectionSource, file: string): Promise<SyncCounts> {
  const counts = emptyCounts();
  const found = await source.lookup(c, file);
  if (found.status !== 'ok') {
    if (index.removeFile(c.key, file)) counts.removed++;
    return counts;
  }
  addCounts(counts, await indexDocument(index, c, source, found.document, index.fileState(c.key, file)));
  return counts;
}

async function indexDocument(
  index: MemoryIndex,
  c: MemoryCollection,
  source: CollectionSource,
  document: SourceDocument,
  known: IndexedFileState | undefined,
): Promise<SyncCounts> {
  const counts = emptyCounts();
  const file = document.path;
  if (known && known.size === document.size && known.mtimeMs === document.mtimeMs) {
    counts.unchanged++;
    return counts;
  }
  let read: DocumentRead | { status: 'failed'; reason: string };
  try {
    read = await source.read(c, document, MAX_FILE_BYTES);
  } catch (err) {
    read = { status: 'failed', reason: (err as Error).message };
  }
  if (read.status !== 'ok') {
    if (read.status === 'too-large') counts.skipped.push(`${file}: larger than ${MAX_FILE_BYTES} bytes`);
    if (read.status === 'failed') counts.skipped.push(`${file}: ${read.reason}`);
    if (index.removeFile(c.key, file)) counts.removed++;
    return counts;
  }
  const hash = createHash('sha256').update(read.text).digest('hex');
  if (known?.hash === hash) {
    index.touchFile(c.key, file, document.size, document.mtimeMs);
    counts.unchanged++;
    return counts;
  }
  const rel = relativeInCollection(c, file) as string;
  index.replaceFile(
    { collectionKey: c.key, collection: c.name, path: file, rel, hash, size: document.size, mtimeMs: document.mtimeMs },
    chunkFile(fileKind(file), read.text),
  );
  counts.indexed++;
  return counts;
}
