import { createHash } from 'node:crypto';
import * as path from 'node:path';
import {
  createPrivateDatabaseFile,
  openSqlite,
  SqliteDatabase,
  SqliteStatement,
  useDurableStoreSettings,
} from '../../common/storage/sqlite';
import type { Chunk } from './chunker';
import type { ChunkRow, CollectionStats, IndexedFile, IndexedFileState, MemoryIndex, PendingEmbedding } from './memory-index.port';
import { VectorMatrix } from './vector-matrix';

/** 2: vectors moved out of the agent's file into the shared vector cache. */
const SCHEMA_VERSION = 2;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
  id INTEGER PRIMARY KEY,
  collection_key TEXT NOT NULL,
  collection TEXT NOT NULL,
  path TEXT NOT NULL,
  rel TEXT NOT NULL,
  hash TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  indexed_at TEXT NOT NULL,
  UNIQUE (collection_key, path)
);
CREATE TABLE IF NOT EXISTS chunks (
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  start_line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  text TEXT NOT NULL,
  hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS chunks_by_file ON chunks(file_id);
CREATE INDEX IF NOT EXISTS chunks_by_hash ON chunks(hash);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(text, content='chunks', content_rowid='id', tokenize='porter unicode61');
CREATE TRIGGER IF NOT EXISTS chunks_ai AFTER INSERT ON chunks BEGIN
  INSERT INTO chunks_fts(rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER IF NOT EXISTS chunks_ad AFTER DELETE ON chunks BEGIN
  INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
`;

/**
 * The vector cache every agent's index shares, attached as \`shared\`. Vectors are keyed by chunk text hash
 * and embedder fingerprint: an unchanged chunk of a re-indexed file (a growing transcript) keeps its
 * vector, and a text that five agents index (a directory granted to all of them) is embedded once.
 * \`refs\` records which agents' indexes hold a chunk with that text; a vector no agent refers to is freed.
 */
const SHARED_SCHEMA = `
CREATE TABLE IF NOT EXISTS shared.vectors (
  hash TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  dims INTEGER NOT NULL,
  vec BLOB NOT NULL,
  PRIMARY KEY (hash, fingerprint)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS shared.refs (
  hash TEXT NOT NULL,
  owner TEXT NOT NULL,
  PRIMARY KEY (hash, owner)
) WITHOUT ROWID;
`;

export interface MemoryIndexLocation {
  /** The agent's index file. */
  file: string;
  /** The shared vector cache [vectors.sqlite beside `file`]. */
  vectorFile?: string;
  /** Whose references this index records in the cache (the agent id) [the index file]. */
  owner?: string;
}

/**
 * The embedded MemoryIndex: one SQLite file per agent (WAL) with FTS5 BM25 over its chunks; vectors (Float32
 * BLOBs tagged with the embedder fingerprint) live in the shared cache, and the agent's own are scanned in
 * process by a VectorMatrix. Searches only ever start from the agent's own chunks, so the cache never
 * reveals another agent's text.
 */
export class SqliteMemoryIndex implements MemoryIndex {
  private readonly db: SqliteDatabase;
  /** Prepared once per SQL text: searches and syncs run the same few statements over and over. */
  private readonly statements = new Map<string, SqliteStatement>();
  /**
   * One matrix per fingerprint (bundled-static searches read its own and, once complete, the model's), with
   * the cache's data_version when it was built: another agent's new vectors make it stale.
   */
  private readonly matrices = new Map<string, { value: VectorMatrix | undefined; sharedVersion: number }>();
  /** Chunks without a vector of a fingerprint, counted once per change (a search asks at every call). */
  private readonly missing = new Map<string, { count: number; sharedVersion: number }>();
  readonly file: string;
  private readonly owner: string;

  constructor(location: string | MemoryIndexLocation) {
    const { file, vectorFile, owner } = typeof location === 'string' ? { file: location } : location;
    this.file = file;
    this.owner = owner ?? file;
    this.db = openSqlite(file);
    useDurableStoreSettings(this.db);
    this.db.pragma('foreign_keys = ON');
    const version = Number(this.db.pragma('user_version', { simple: true }));
    if (version > SCHEMA_VERSION) throw new Error(`${file} was written by a newer clawgate (schema ${version})`);
    const shared = vectorFile ?? path.join(path.dirname(file), 'vectors.sqlite');
    createPrivateDatabaseFile(shared);
    this.db.prepare('ATTACH DATABASE ? AS shared').run(shared);
    this.db.pragma('shared.journal_mode = WAL');
    this.db.pragma('shared.synchronous = NORMAL');
    this.db.exec(SCHEMA);
    this.db.exec(SHARED_SCHEMA);
    this.tx(() => this.migrate(version));
  }

  fileStates(collectionKey: string): Map<string, IndexedFileState> {
    const rows = this.sql('SELECT path, hash, size, mtime_ms FROM files WHERE collection_key = ?').all(collectionKey) as Array<{
      path: string;
      hash: string;
      size: number;
      mtime_ms: number;
    }>;
    return new Map(rows.map((r) => [r.path, { hash: r.hash, size: r.size, mtimeMs: r.mtime_ms }]));
  }

  fileState(collectionKey: string, file: string): IndexedFileState | undefined {
    const row = this.sql('SELECT hash, size, mtime_ms FROM files WHERE collection_key = ? AND path = ?').get(collectionKey, file) as
      { hash: string; size: number; mtime_ms: number } | undefined;
    return row && { hash: row.hash, size: row.size, mtimeMs: row.mtime_ms };
  }

  replaceFile(file: IndexedFile, chunks: Chunk[]): void {
    this.tx(() => {
      this.deleteFile(file.collectionKey, file.path);
      const { lastInsertRowid } = this.sql(
        'INSERT INTO files (collection_key, collection, path, rel, hash, size, mtime_ms, indexed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ).run(file.collectionKey, file.collection, file.path, file.rel, file.hash, file.size, file.mtimeMs, new Date().toISOString());
      const insert = this.sql('INSERT INTO chunks (file_id, start_line, end_line, text, hash) VALUES (?, ?, ?, ?, ?)');
      for (const c of chunks) insert.run(lastInsertRowid, c.startLine, c.endLine, c.text, textHash(c.text));
      // Referenced at once, so another agent freeing the same text cannot drop a vector this one is about to use.
      this.sql('INSERT OR IGNORE INTO shared.refs (hash, owner) SELECT DISTINCT hash, ? FROM chunks WHERE file_id = ?').run(
        this.owner,
        lastInsertRowid,
      );
    });
    // A new chunk whose text was embedded before already has a vector: the matrix must pick it up.
    this.invalidate();
  }

  touchFile(collectionKey: string, file: string, size: number, mtimeMs: number): void {
    this.sql('UPDATE files SET size = ?, mtime_ms = ? WHERE collection_key = ? AND path = ?').run(size, mtimeMs, collectionKey, file);
  }

  removeFile(collectionKey: string, file: string): boolean {
    return this.tx(() => this.deleteFile(collectionKey, file));
  }

  retainCollections(keys: readonly string[]): number {
    return this.tx(() => {
      const stale = this.sql('SELECT collection_key, path FROM files WHERE collection_key NOT IN (SELECT value FROM json_each(?))').all(
        JSON.stringify(keys),
      ) as Array<{ collection_key: string; path: string }>;
      for (const f of stale) this.deleteFile(f.collection_key, f.path);
      return stale.length;
    });
  }

  useFingerprint(fingerprint: string | undefined, keep: readonly string[] = []): void {
    const kept = [fingerprint ?? '', ...keep];
    // One fingerprint is stored as itself, so an index written before `keep` existed reads the same.
    const value = kept.length === 1 ? kept[0] : JSON.stringify(kept);
    const current = (this.sql("SELECT value FROM meta WHERE key = 'fingerprint'").get() as { value: string } | undefined)?.value;
    if (current === value) return;
    this.tx(() => {
      this.sql('DELETE FROM shared.vectors WHERE fingerprint NOT IN (SELECT value FROM json_each(?))').run(JSON.stringify(kept));
      this.sql("INSERT INTO meta (key, value) VALUES ('fingerprint', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(value);
    });
    this.invalidate();
  }

  pendingEmbeddings(fingerprint: string, limit: number, afterChunkId = 0): PendingEmbedding[] {
    // Walks chunks in id order from a cursor, so a pass over N chunks costs O(N) rather than rescanning
    // the already-embedded prefix for every batch.
    const rows = this.sql(
      `SELECT c.id AS chunkId, c.hash AS hash, c.text AS text FROM chunks c
         WHERE c.id > ? AND NOT EXISTS (SELECT 1 FROM shared.vectors e WHERE e.hash = c.hash AND e.fingerprint = ?)
         ORDER BY c.id LIMIT ?`,
    ).all(afterChunkId, fingerprint, limit) as PendingEmbedding[];
    const seen = new Set<string>();
    return rows.filter((r) => !seen.has(r.hash) && seen.add(r.hash));
  }

  storeEmbeddings(fingerprint: string, items: ReadonlyArray<{ hash: string; vector: Float32Array }>): void {
    if (!items.length) return;
    const insert = this.sql('INSERT OR REPLACE INTO shared.vectors (hash, fingerprint, dims, vec) VALUES (?, ?, ?, ?)');
    const ref = this.sql('INSERT OR IGNORE INTO shared.refs (hash, owner) VALUES (?, ?)');
    this.tx(() => {
      for (const { hash, vector } of items) {
        insert.run(hash, fingerprint, vector.length, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength));
        ref.run(hash, this.owner);
      }
    });
    this.invalidate(fingerprint);
  }

  storedVectors(fingerprint: string, ids: readonly number[]): Map<number, Float32Array> {
    const rows = this.sql(
      `SELECT c.id AS id, e.vec AS vec FROM chunks c JOIN shared.vectors e ON e.hash = c.hash AND e.fingerprint = ?
         WHERE c.id IN (SELECT value FROM json_each(?))`,
    ).all(fingerprint, JSON.stringify(ids)) as Array<{ id: number; vec: Buffer }>;
    // Copied out of the blob: its byteOffset need not be 4-aligned.
    return new Map(rows.map((r) => [r.id, new Float32Array(new Uint8Array(r.vec).buffer)]));
  }

  storeChunkVectors(fingerprint: string, items: ReadonlyArray<{ id: number; vector: Float32Array }>): void {
    const rows = this.sql('SELECT id, hash FROM chunks WHERE id IN (SELECT value FROM json_each(?))').all(
      JSON.stringify(items.map((i) => i.id)),
    ) as Array<{ id: number; hash: string }>;
    const hashOf = new Map(rows.map((r) => [r.id, r.hash]));
    // A chunk replaced while the model worked is gone: its vector is not stored.
    this.storeEmbeddings(
      fingerprint,
      items.flatMap((i) => {
        const hash = hashOf.get(i.id);
        return hash ? [{ hash, vector: i.vector }] : [];
      }),
    );
  }

  missingVectors(fingerprint: string): number {
    const sharedVersion = this.sharedVersion();
    const known = this.missing.get(fingerprint);
    if (known?.sharedVersion === sharedVersion) return known.count;
    const { count } = this.sql(
      'SELECT count(*) AS count FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM shared.vectors e WHERE e.hash = c.hash AND e.fingerprint = ?)',
    ).get(fingerprint) as { count: number };
    this.missing.set(fingerprint, { count, sharedVersion });
    return count;
  }

  storedHashes(fingerprint: string, hashes: readonly string[]): Set<string> {
    const rows = this.sql('SELECT hash FROM shared.vectors WHERE fingerprint = ? AND hash IN (SELECT value FROM json_each(?))').all(
      fingerprint,
      JSON.stringify(hashes),
    ) as Array<{ hash: string }>;
    return new Set(rows.map((r) => r.hash));
  }

  pruneEmbeddings(): number {
    return this.tx(() => {
      // This index's references follow its chunks; a vector left with no reference from any agent is freed.
      this.sql('DELETE FROM shared.refs WHERE owner = ? AND hash NOT IN (SELECT hash FROM chunks)').run(this.owner);
      this.sql('INSERT OR IGNORE INTO shared.refs (hash, owner) SELECT DISTINCT hash, ? FROM chunks').run(this.owner);
      return this.sql('DELETE FROM shared.vectors WHERE hash NOT IN (SELECT hash FROM shared.refs)').run().changes;
    });
  }

  keywordSearch(ftsQuery: string, collectionKeys: readonly string[], limit: number): number[] {
    // Ranking inside the FTS subquery (ORDER BY rank = bm25) lets FTS5 use its own ranking path; ordering
    // by bm25() over the joined rows was ~6x slower at 10k chunks with common terms.
    const rows = this.sql(
      `SELECT c.id AS id FROM (SELECT rowid AS id, rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank) r
         JOIN chunks c ON c.id = r.id
         JOIN files f ON f.id = c.file_id
         WHERE f.collection_key IN (SELECT value FROM json_each(?))
         ORDER BY r.rank LIMIT ?`,
    ).all(ftsQuery, JSON.stringify(collectionKeys), limit) as Array<{ id: number }>;
    return rows.map((r) => r.id);
  }

  vectorSearch(
    query: Float32Array,
    fingerprint: string,
    collectionKeys: readonly string[],
    limit: number,
  ): Array<{ id: number; score: number }> | undefined {
    return this.vectors(fingerprint)?.search(query, collectionKeys, limit);
  }

  vectorScores(query: Float32Array, fingerprint: string, ids: readonly number[]): Map<number, number> {
    return this.vectors(fingerprint)?.scoresOf(query, ids) ?? new Map<number, number>();
  }

  termMatches(ftsTerms: readonly string[], ids: readonly number[]): Map<number, number> {
    const counts = new Map<number, number>();
    if (!ids.length) return counts;
    const matching = this.sql('SELECT rowid AS id FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))');
    const candidates = JSON.stringify(ids);
    for (const term of ftsTerms) {
      for (const { id } of matching.all(term, candidates) as Array<{ id: number }>) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  }

  chunks(ids: readonly number[]): ChunkRow[] {
    if (!ids.length) return [];
    const rows = this.sql(
      `SELECT c.id AS id, f.collection_key AS collectionKey, f.collection AS collection, f.path AS path, f.rel AS rel,
                c.start_line AS startLine, c.end_line AS endLine, c.text AS text
         FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.id IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(ids)) as ChunkRow[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  stats(fingerprint: string | undefined): CollectionStats[] {
    const rows = this.sql(
      `SELECT f.collection_key AS collectionKey, count(DISTINCT f.id) AS files, count(c.id) AS chunks,
                count(e.hash) AS embedded, max(f.indexed_at) AS lastIndexedAt,
                min(CASE WHEN c.id IS NOT NULL AND e.hash IS NULL THEN f.indexed_at END) AS oldestPendingAt
         FROM files f LEFT JOIN chunks c ON c.file_id = f.id
         LEFT JOIN shared.vectors e ON e.hash = c.hash AND e.fingerprint = ?
         GROUP BY f.collection_key`,
    ).all(fingerprint ?? '') as Array<CollectionStats & { lastIndexedAt: string | null; oldestPendingAt: string | null }>;
    return rows.map((r) => ({ ...r, lastIndexedAt: r.lastIndexedAt ?? undefined, oldestPendingAt: r.oldestPendingAt ?? undefined }));
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private sharedVersion(): number {
    return Number(this.db.pragma('shared.data_version', { simple: true }));
  }

  /** Forgets the matrices and counts of one fingerprint (its vectors changed) or of all (the chunks changed). */
  private invalidate(fingerprint?: string): void {
    for (const cache of [this.matrices, this.missing]) {
      if (fingerprint === undefined) cache.clear();
      else cache.delete(fingerprint);
    }
  }

  private vectors(fingerprint: string): VectorMatrix | undefined {
    // Changes this connection made reset the matrix themselves; data_version moves on another agent's commit.
    const sharedVersion = this.sharedVersion();
    const known = this.matrices.get(fingerprint);
    if (known?.sharedVersion === sharedVersion) return known.value;
    const rows = this.sql(
      `SELECT c.id AS id, f.collection_key AS collectionKey, e.dims AS dims, e.vec AS vec
         FROM chunks c JOIN files f ON f.id = c.file_id
         JOIN shared.vectors e ON e.hash = c.hash AND e.fingerprint = ?`,
    ).all(fingerprint) as Array<{ id: number; collectionKey: string; dims: number; vec: Buffer }>;
    const dims = rows[0]?.dims;
    const value = rows.length
      ? new VectorMatrix(
          dims,
          rows.filter((r) => r.dims === dims),
        )
      : undefined;
    this.matrices.set(fingerprint, { value, sharedVersion });
    return value;
  }

  /** Schema 1 kept vectors in the agent's file: they move to the shared cache (nothing is embedded again). */
  private migrate(from: number): void {
    if (from === 1) {
      const old = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'embeddings'").get();
      if (old) {
        this.db.exec(
          'INSERT OR IGNORE INTO shared.vectors (hash, fingerprint, dims, vec) SELECT hash, fingerprint, dims, vec FROM embeddings',
        );
        this.db.exec('DROP TABLE embeddings');
      }
    }
    this.db.prepare('INSERT OR IGNORE INTO shared.refs (hash, owner) SELECT DISTINCT hash, ? FROM chunks').run(this.owner);
    this.db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }

  private deleteFile(collectionKey: string, file: string): boolean {
    const row = this.sql('SELECT id FROM files WHERE collection_key = ? AND path = ?').get(collectionKey, file) as
      { id: number } | undefined;
    if (!row) return false;
    // Chunks go first and explicitly, so the FTS delete trigger sees every row.
    this.sql('DELETE FROM chunks WHERE file_id = ?').run(row.id);
    this.sql('DELETE FROM files WHERE id = ?').run(row.id);
    this.invalidate();
    return true;
  }

  private sql(text: string): SqliteStatement {
    let statement = this.statements.get(text);
    if (!statement) this.statements.set(text, (statement = this.db.prepare(text)));
    return statement;
  }

  private tx<R>(fn: () => R): R {
    return this.db.transaction(fn)();
  }
}

export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
