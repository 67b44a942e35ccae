import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openSqlite } from './sqlite';

describe('openSqlite', () => {
  it('loads better-sqlite3 with the typed surface both stores rely on', () => {
    const db = openSqlite(':memory:');
    try {
      expect(db.open).toBe(true);
      db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
      const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
      const first = insert.run('a');
      expect(first.changes).toBe(1);
      expect(Number(first.lastInsertRowid)).toBe(1);
      const insertMany = db.transaction((values: string[]) => values.forEach((v) => insert.run(v)));
      insertMany(['b', 'c']);
      expect(db.prepare('SELECT v FROM t ORDER BY id').all()).toEqual([{ v: 'a' }, { v: 'b' }, { v: 'c' }]);
      expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 3 });
      expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    } finally {
      db.close();
    }
    expect(db.open).toBe(false);
  });

  it('creates a new database, its -wal and -shm files 0600 and its directory 0700, whatever the umask', async () => {
    if (process.platform === 'win32') return;
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-sqlite-'));
    const previous = process.umask(0o022);
    try {
      const file = path.join(dir, 'store', 'x.sqlite');
      const db = openSqlite(file);
      try {
        db.pragma('journal_mode = WAL');
        db.exec('CREATE TABLE t (v TEXT)');
        db.prepare('INSERT INTO t (v) VALUES (?)').run('a conversation');
        const names = (await fs.readdir(path.dirname(file))).sort();
        expect(names).toEqual(['x.sqlite', 'x.sqlite-shm', 'x.sqlite-wal']);
        for (const name of names) expect([name, (await fs.stat(path.join(dir, 'store', name))).mode & 0o777]).toEqual([name, 0o600]);
        expect((await fs.stat(path.dirname(file))).mode & 0o777).toBe(0o700);
      } finally {
        db.close();
      }
    } finally {
      process.umask(previous);
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
