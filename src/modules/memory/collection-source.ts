/**
 * Where a collection's documents come from. Most collections are directories of files; a collection on a
 * session dir of this gateway's state dir is read from the session store instead (one document per session,
 * named `<sessionsDir>/<sessionId>.jsonl` as the file layout named its transcript). Sync, search and
 * memory_get talk to a CollectionSource and never ask which one it is; CollectionSources picks it per
 * collection, in one place.
 */
import type { MemoryCollection } from './memory-collections';

/** One document of a collection and what the index remembers to notice that it changed. */
export interface SourceDocument {
  /** Absolute path (for a session: the path its transcript file had); the index's and memory_get's name for it. */
  path: string;
  /** Bytes of a file; the transcript version of a session. */
  size: number;
  /** mtime of a file; the last append of a session (epoch ms). */
  mtimeMs: number;
}

export type DocumentLookup<D extends SourceDocument = SourceDocument> =
  | { status: 'ok'; document: D }
  | { status: 'missing' }
  /** Something is there but it is not a document of the collection: a symlink out of it, a directory. */
  | { status: 'blocked' };

export type DocumentRead =
  | { status: 'ok'; text: string }
  /** Went away since it was listed. */
  | { status: 'gone' }
  | { status: 'too-large' };

/** What changed since the last flush: paths to re-check, and collections to rescan (a directory came or went). */
export interface ChangeBatch {
  files: Set<string>;
  rescan: Set<string>;
}

export interface WatchOptions {
  /** Quiet time before a change is reported (memory.qmd.update.debounceMs), read at every event. */
  debounceMs: () => number;
  onBatch: (batch: ChangeBatch) => void;
  onError?: (err: Error) => void;
}

/** Follows some collections and reports their changes; `start` resolves once it is live. */
export interface ChangeWatcher {
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Methods take the collection they are asked about: one source serves every collection of its kind. A
 * reported path is only a hint to re-check it; `lookup` decides what it is, so a batch may name paths of
 * any collection.
 */
export interface CollectionSource<D extends SourceDocument = SourceDocument> {
  /** Every document of the collection, by path. */
  list(c: MemoryCollection): Promise<Map<string, D>>;
  /** One path: a document of the collection, nothing, or something that must not be read. */
  lookup(c: MemoryCollection, file: string): Promise<DocumentLookup<D>>;
  /** The text of a document `list` or `lookup` returned; `too-large` past `maxBytes`. */
  read(c: MemoryCollection, document: D, maxBytes?: number): Promise<DocumentRead>;
  /** A watcher over these collections (all of this source), not started yet. */
  watcher(collections: readonly MemoryCollection[], options: WatchOptions): ChangeWatcher;
}

/** The sources of one gateway: files always, the session store when there is one. */
export class CollectionSources {
  constructor(
    private readonly files: CollectionSource,
    private readonly sessions?: CollectionSource,
  ) {}

  /** The one place that decides: a collection on a session dir of this state dir reads the session store. */
  for(c: MemoryCollection): CollectionSource {
    if (c.transcriptsOf === undefined) return this.files;
    if (!this.sessions) throw new Error(`collection ${c.name} reads sessions, but there is no session store`);
    return this.sessions;
  }

  /** One watcher over all the collections: each source follows its own. */
  watcher(collections: readonly MemoryCollection[], options: WatchOptions): ChangeWatcher {
    const bySource = new Map<CollectionSource, MemoryCollection[]>();
    for (const c of collections) {
      const source = this.for(c);
      bySource.set(source, [...(bySource.get(source) ?? []), c]);
    }
    const watchers = [...bySource].map(([source, own]) => source.watcher(own, options));
    return {
      start: async () => {
        await Promise.all(watchers.map((w) => w.start()));
      },
      close: async () => {
        await Promise.all(watchers.map((w) => w.close()));
      },
    };
  }
}
