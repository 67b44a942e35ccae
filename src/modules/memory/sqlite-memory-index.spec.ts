import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HashingEmbedder } from '../../../test/fixtures/memory/hashing-embedder';
import { openSqlite } from '../../common/storage/sqlite';
import { SqliteMemoryIndex } from './sqlite-memory-index';

const file = (collectionKey: string, p: string) => ({
  collectionKey,
  collection: collectionKey,
  path: p,
  rel: path.basename(p),
  hash: p,
  size: 1,
  mtimeMs: 1,
});

describe('SqliteMemoryIndex', () => {
  let dir: string;
  let index: SqliteMemoryIndex;
  const emb = new HashingEmbedder(32);

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'memidx-'));
    index = new SqliteMemoryIndex(path.join(dir, 'agents', 'main', 'memory', 'index.sqlite'));
  });
  afterEach(() => {
    index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens one WAL database with the schema', () => {
    const db = openSqlite(index.file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'chunks_fts'").get()).toMatchObject({
      sql: expect.stringContaining('porter unicode61'),
    });
    db.close();
  });

  it('finds chunks by stemmed keywords, only within the given collections', () => {
    index.replaceFile(file('a', '/a/x.md'), [{ startLine: 1, endLine: 2, text: 'We were running along the river' }]);
    index.replaceFile(file('b', '/b/y.md'), [{ startLine: 3, endLine: 3, text: 'She runs a bakery' }]);
    const both = index.keywordSearch('"runs"', ['a', 'b'], 10);
    expect(both).toHaveLength(2);
    const onlyA = index.keywordSearch('"runs"', ['a'], 10);
    expect(index.chunks(onlyA)).toEqual([
      {
        id: onlyA[0],
        collectionKey: 'a',
        collection: 'a',
        path: '/a/x.md',
        rel: 'x.md',
        startLine: 1,
        endLine: 2,
        text: 'We were running along the river',
      },
    ]);
  });

  it('replaces a file atomically and forgets removed files and collections', () => {
    index.replaceFile(file('a', '/a/x.md'), [{ startLine: 1, endLine: 1, text: 'old penguin fact' }]);
    index.replaceFile(file('a', '/a/x.md'), [{ startLine: 1, endLine: 1, text: 'new walrus fact' }]);
    expect(index.fileState('a', '/a/x.md')).toEqual(index.fileStates('a').get('/a/x.md'));
    expect(index.fileState('a', '/a/none.md')).toBeUndefined();
    expect(index.keywordSearch('"penguin"', ['a'], 10)).toEqual([]);
    expect(index.keywordSearch('"walrus"', ['a'], 10)).toHaveLength(1);
    index.replaceFile(file('b', '/b/y.md'), [{ startLine: 1, endLine: 1, text: 'walrus again' }]);
    expect(index.retainCollections(['a'])).toBe(1);
    expect(index.keywordSearch('"walrus"', ['a', 'b'], 10)).toHaveLength(1);
    expect(index.removeFile('a', '/a/x.md')).toBe(true);
    expect(index.keywordSearch('"walrus"', ['a', 'b'], 10)).toEqual([]);
    expect(index.fileStates('a').size).toBe(0);
  });

  it('embeds each chunk text once, keeps vectors across re-indexing, and re-embeds for a new fingerprint', async () => {
    index.useFingerprint(emb.fingerprint);
    index.replaceFile(file('a', '/a/x.md'), [
      { startLine: 1, endLine: 1, text: 'apples and pears' },
      { startLine: 2, endLine: 2, text: 'boats on the lake' },
    ]);
    const pending = index.pendingEmbeddings(emb.fingerprint, 10);
    expect(pending.map((p) => p.text)).toEqual(['apples and pears', 'boats on the lake']);
    const vectors = await emb.embed(pending.map((p) => p.text));
    index.storeEmbeddings(
      emb.fingerprint,
      pending.map((p, i) => ({ hash: p.hash, vector: vectors[i] })),
    );
    expect(index.pendingEmbeddings(emb.fingerprint, 10)).toEqual([]);

    // The file grows: only the new chunk needs a vector.
    index.replaceFile(file('a', '/a/x.md'), [
      { startLine: 1, endLine: 1, text: 'apples and pears' },
      { startLine: 2, endLine: 2, text: 'boats on the lake' },
      { startLine: 3, endLine: 3, text: 'trains at night' },
    ]);
    expect(index.pendingEmbeddings(emb.fingerprint, 10).map((p) => p.text)).toEqual(['trains at night']);

    const [q] = await emb.embed(['boats lake']);
    const hits = index.vectorSearch(q, emb.fingerprint, ['a'], 5)!;
    expect(index.chunks(hits.map((h) => h.id))[0].text).toBe('boats on the lake');
    expect(hits[0].score).toBeGreaterThan(hits[1].score);
    expect(index.vectorScores(q, emb.fingerprint, [hits[1].id, 999]).get(hits[1].id)).toBeCloseTo(hits[1].score, 5);
    expect(
      index
        .termMatches(
          ['"boats"', '"lake"', '"night"'],
          hits.map((h) => h.id),
        )
        .get(hits[0].id),
    ).toBe(2);
    expect(index.vectorSearch(q, emb.fingerprint, ['other'], 5)).toBeUndefined();
    expect(index.stats(emb.fingerprint)).toEqual([expect.objectContaining({ collectionKey: 'a', files: 1, chunks: 3, embedded: 2 })]);

    index.useFingerprint('other-model');
    expect(index.pendingEmbeddings('other-model', 10)).toHaveLength(3);
    expect(index.vectorSearch(q, emb.fingerprint, ['a'], 5)).toBeUndefined();
  });

  it('prunes vectors nothing refers to', async () => {
    index.replaceFile(file('a', '/a/x.md'), [{ startLine: 1, endLine: 1, text: 'gone soon' }]);
    const [p] = index.pendingEmbeddings(emb.fingerprint, 1);
    index.storeEmbeddings(emb.fingerprint, [{ hash: p.hash, vector: (await emb.embed([p.text]))[0] }]);
    index.removeFile('a', '/a/x.md');
    expect(index.pruneEmbeddings()).toBe(1);
  });
});
