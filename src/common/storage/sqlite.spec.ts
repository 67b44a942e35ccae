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
});
