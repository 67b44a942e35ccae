import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HashingEmbedder } from '../../../test/fixtures/memory/hashing-embedder';
import { openSqlite } from '../../common/storage/sqlite';
import { SharedEmbeddings } from './shared-embeddings';
import { SqliteMemoryIndex, textHash } from './sqlite-memory-index';

const file = (collectionKey: string, p: string) => ({
  collectionKey,
  collection: collectionKey,
  path: p,
  rel: path.basename(p),
  hash: p,
  size: 1,
  mtimeMs: 1,
});
const TEXT = 'The spare canoe paddles are in the red shed behind the barn.';

describe('the vector cache shared by agents’ indexes', () => {
  let dir: string;
  let vectorFile: string;
  const emb = new HashingEmbedder(32);
  const open = (owner: string) =>
    new SqliteMemoryIndex({ file: path.join(dir, 'agents', owner, 'memory', 'index.sqlite'), vectorFile, owner });
  const rows = (table: 'vectors' | 'refs') => {
    const db = openSqlite(vectorFile);
    try {
      return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    } finally {
      db.close();
    }
  };

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'shared-vectors-'));
    vectorFile = path.join(dir, 'memory', 'vectors.sqlite');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('serves a vector one agent stored to another agent holding the same text, and frees it with the last reference', () => {
    const a = open('a');
    const b = open('b');
    for (const index of [a, b]) {
      index.useFingerprint(emb.fingerprint);
      index.replaceFile(file('shared', '/shared/canoe.md'), [{ startLine: 1, endLine: 1, text: TEXT }]);
    }
    expect(b.stats(emb.fingerprint)).toEqual([expect.objectContaining({ chunks: 1, embedded: 0, oldestPendingAt: expect.any(String) })]);
    // b searches before anything is embedded: no vector list yet (its matrix is built empty-handed).
    expect(b.vectorSearch(emb.vector('canoe paddles'), emb.fingerprint, ['shared'], 5)).toBeUndefined();
    const [pending] = a.pendingEmbeddings(emb.fingerprint, 10);
    a.storeEmbeddings(emb.fingerprint, [{ hash: pending.hash, vector: emb.vector(pending.text) }]);
    // Nothing left for b to embed, and b's search sees a's vector at once (another connection's commit).
    expect(b.pendingEmbeddings(emb.fingerprint, 10)).toEqual([]);
    expect(b.vectorSearch(emb.vector('canoe paddles'), emb.fingerprint, ['shared'], 5)).toHaveLength(1);
    expect(b.stats(emb.fingerprint)).toEqual([expect.objectContaining({ chunks: 1, embedded: 1, oldestPendingAt: undefined })]);
    expect([rows('vectors'), rows('refs')]).toEqual([1, 2]);

    a.removeFile('shared', '/shared/canoe.md');
    expect(a.pruneEmbeddings()).toBe(0); // b still refers to it
    expect([rows('vectors'), rows('refs')]).toEqual([1, 1]);
    b.removeFile('shared', '/shared/canoe.md');
    expect(b.pruneEmbeddings()).toBe(1);
    expect([rows('vectors'), rows('refs')]).toEqual([0, 0]);
    a.close();
    b.close();
  });

  it('moves the vectors of an index written before the cache existed, so nothing is embedded again', () => {
    const legacy = path.join(dir, 'agents', 'old', 'memory', 'index.sqlite');
    const first = open('old'); // creates the current schema; turned back into the old layout below
    first.useFingerprint(emb.fingerprint);
    first.replaceFile(file('notes', '/notes/canoe.md'), [{ startLine: 1, endLine: 1, text: TEXT }]);
    first.close();
    const db = openSqlite(legacy);
    db.exec(
      'CREATE TABLE embeddings (hash TEXT NOT NULL, fingerprint TEXT NOT NULL, dims INTEGER NOT NULL, vec BLOB NOT NULL, PRIMARY KEY (hash, fingerprint))',
    );
    const v = emb.vector(TEXT);
    db.prepare('INSERT INTO embeddings VALUES (?, ?, ?, ?)').run(textHash(TEXT), emb.fingerprint, v.length, Buffer.from(v.buffer));
    db.pragma('user_version = 1');
    db.close();
    rmSync(vectorFile);

    const reopened = open('old');
    expect(reopened.pendingEmbeddings(emb.fingerprint, 10)).toEqual([]);
    expect(reopened.vectorSearch(emb.vector('canoe paddles'), emb.fingerprint, ['notes'], 5)).toHaveLength(1);
    reopened.close();
    const after = openSqlite(legacy);
    expect(after.pragma('user_version', { simple: true })).toBe(2);
    expect(after.prepare("SELECT name FROM sqlite_master WHERE name = 'embeddings'").get()).toBeUndefined();
    after.close();
    expect([rows('vectors'), rows('refs')]).toEqual([1, 1]);
  });

  it('embeds a text once when several agents ask for it at the same time', async () => {
    const shared = new SharedEmbeddings();
    const counting = new HashingEmbedder(32);
    const items = [
      { hash: 'h1', text: 'red shed' },
      { hash: 'h2', text: 'canoe paddles' },
    ];
    const results = await Promise.all(Array.from({ length: 5 }, () => shared.embed(counting, items, () => new Set())));
    expect(counting.embedded).toBe(2);
    expect(shared.embedded).toBe(2);
    for (const r of results) expect([...r.keys()].sort()).toEqual(['h1', 'h2']);
    // A text the cache already holds is not embedded (and not returned: there is nothing to store).
    expect((await shared.embed(counting, items, () => new Set(['h1']))).has('h1')).toBe(false);
    expect(counting.embedded).toBe(3);
  });
});
