/**
 * The MemoryIndex port: storage and retrieval primitives of one agent's memory index (files, chunks,
 * keyword and vector lists). The embedded implementation is SQLite (FTS5) plus an in-process vector scan;
 * a shared backend can implement the same primitives while scanning, chunking, embedding and rank fusion
 * stay in AgentMemory.
 */
import type { Chunk } from './chunker';

/** What is remembered of an indexed document to notice a change (see SourceDocument). */
export interface IndexedFileState {
  hash: string;
  /** Bytes of a file; transcript version of a session. */
  size: number;
  /** mtime of a file; last append of a session. */
  mtimeMs: number;
}

export interface IndexedFile extends IndexedFileState {
  collectionKey: string;
  collection: string;
  /** Absolute path. */
  path: string;
  /** Path inside the collection root, `/`-separated. */
  rel: string;
}

export interface ChunkRow {
  id: number;
  collectionKey: string;
  collection: string;
  path: string;
  rel: string;
  startLine: number;
  endLine: number;
  text: string;
}

export interface CollectionStats {
  collectionKey: string;
  files: number;
  chunks: number;
  /** Chunks that have a vector from the current embedder. */
  embedded: number;
  lastIndexedAt?: string;
  /** When the oldest file with a chunk still waiting for its vector was indexed. */
  oldestPendingAt?: string;
}

export interface PendingEmbedding {
  chunkId: number;
  hash: string;
  text: string;
}

export interface MemoryIndex {
  fileStates(collectionKey: string): Map<string, IndexedFileState>;
  /** The state of one file (a watcher event), without reading the whole collection's. */
  fileState(collectionKey: string, path: string): IndexedFileState | undefined;
  /** Replaces the chunks of one file atomically (readers see the old or the new version, never a mix). */
  replaceFile(file: IndexedFile, chunks: Chunk[]): void;
  /** Records a new size/mtime (or session version) for a document whose content hash did not change. */
  touchFile(collectionKey: string, path: string, size: number, mtimeMs: number): void;
  removeFile(collectionKey: string, path: string): boolean;
  /** Drops every file of collections not in `keys`; returns how many files went. */
  retainCollections(keys: readonly string[]): number;
  /**
   * Selects the embedder; vectors of any other fingerprint than it and `keep` are dropped (a changed embedder
   * re-embeds). `keep`: the model whose vectors bundled-static stores beside its own.
   */
  useFingerprint(fingerprint: string | undefined, keep?: readonly string[]): void;
  /** Chunks after `afterChunkId` (id order) whose text has no vector of this fingerprint, one per text. */
  pendingEmbeddings(fingerprint: string, limit: number, afterChunkId?: number): PendingEmbedding[];
  storeEmbeddings(fingerprint: string, items: ReadonlyArray<{ hash: string; vector: Float32Array }>): void;
  /** Which of these texts already have a vector of this fingerprint (another agent may have made it). */
  storedHashes(fingerprint: string, hashes: readonly string[]): Set<string>;
  /** The stored vectors of these chunks under this fingerprint (chunks without one are left out). */
  storedVectors(fingerprint: string, ids: readonly number[]): Map<number, Float32Array>;
  /** Stores vectors by chunk id (under the digest of each chunk's text, like storeEmbeddings). */
  storeChunkVectors(fingerprint: string, items: ReadonlyArray<{ id: number; vector: Float32Array }>): void;
  /** How many chunks of this index have no vector of this fingerprint. */
  missingVectors(fingerprint: string): number;
  /** Drops this index's references to texts it no longer holds and frees vectors no index refers to; returns how many went. */
  pruneEmbeddings(): number;
  /** Chunk ids by BM25, best first, restricted to the given collections. */
  keywordSearch(ftsQuery: string, collectionKeys: readonly string[], limit: number): number[];
  /** Chunk ids with their cosine similarity, best first; undefined when no chunk of these collections has a vector. */
  vectorSearch(
    query: Float32Array,
    fingerprint: string,
    collectionKeys: readonly string[],
    limit: number,
  ): Array<{ id: number; score: number }> | undefined;
  /** Cosine similarity of the query with each of these chunks that has a vector. */
  vectorScores(query: Float32Array, fingerprint: string, ids: readonly number[]): Map<number, number>;
  /** How many of the FTS terms (each a quoted MATCH term) each of these chunks contains. */
  termMatches(ftsTerms: readonly string[], ids: readonly number[]): Map<number, number>;
  chunks(ids: readonly number[]): ChunkRow[];
  stats(fingerprint: string | undefined): CollectionStats[];
  close(): void;
}
