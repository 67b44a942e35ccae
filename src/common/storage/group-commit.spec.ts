import { GroupCommit } from './group-commit';
import { openSqlite, SqliteDatabase } from './sqlite';

describe('GroupCommit', () => {
  let db: SqliteDatabase;
  beforeEach(() => {
    db = openSqlite(':memory:');
    db.exec('CREATE TABLE t (v TEXT NOT NULL UNIQUE)');
  });
  afterEach(() => db.open && db.close());
  const rows = () => (db.prepare('SELECT v FROM t ORDER BY rowid').all() as Array<{ v: string }>).map((r) => r.v);
  const insert = (v: string) => () => db.prepare('INSERT INTO t (v) VALUES (?)').run(v).changes;

  it('commits the writes of one turn in one transaction, in submission order', async () => {
    let transactions = 0;
    const commits = new GroupCommit(
      () => db,
      () => transactions++,
    );
    const results = await Promise.all(['a', 'b', 'c'].map((v) => commits.run(insert(v))));
    expect(results).toEqual([1, 1, 1]);
    expect(rows()).toEqual(['a', 'b', 'c']);
    expect(transactions).toBe(1);
  });

  it('rolls back only a failing write, including what it did before it threw, and tells the owner once', async () => {
    let rollbacks = 0;
    const commits = new GroupCommit(
      () => db,
      undefined,
      () => rollbacks++,
    );
    const halfDone = () => {
      insert('half')();
      return insert('a')(); // duplicate of the first write: throws after its first insert
    };
    const results = await Promise.allSettled([commits.run(insert('a')), commits.run(halfDone), commits.run(insert('b'))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
    expect(rows()).toEqual(['a', 'b']);
    expect(rollbacks).toBe(1);
  });

  it('rejects every write of a batch whose commit fails', async () => {
    const commits = new GroupCommit(() => db);
    const pending = [commits.run(insert('a')), commits.run(insert('b'))];
    db.close();
    const results = await Promise.allSettled(pending);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });

  it('fails the whole batch, and stores none of it, when SQLite rolls the transaction back itself (disk full)', async () => {
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages + 3}`);
    let rollbacks = 0;
    const commits = new GroupCommit(
      () => db,
      undefined,
      () => rollbacks++,
    );
    const tooBig = () => db.prepare('INSERT INTO t (v) VALUES (?)').run('x'.repeat(200_000)).changes;
    const results = await Promise.allSettled([commits.run(insert('a')), commits.run(tooBig), commits.run(insert('b'))]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(results.map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(['SQLITE_FULL', 'SQLITE_FULL', 'SQLITE_FULL']);
    expect(rows()).toEqual([]);
    expect(db.inTransaction).toBe(false);
    expect(rollbacks).toBeGreaterThan(0);
    // The store goes on once there is room again.
    db.pragma('max_page_count = 100000');
    await expect(commits.run(insert('c'))).resolves.toBe(1);
    expect(rows()).toEqual(['c']);
  });
});
