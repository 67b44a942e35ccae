import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openSqlite, useDurableStoreSettings } from './sqlite';
import { WalCheckpointer } from './wal-checkpointer';

describe('WalCheckpointer', () => {
  it('copies committed pages into the database file from its worker, and stops cleanly', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-wal-'));
    const file = path.join(dir, 'store.sqlite');
    const db = openSqlite(file);
    useDurableStoreSettings(db);
    const errors: string[] = [];
    const checkpointer = new WalCheckpointer(db, file, (m) => errors.push(m));
    try {
      // Far below the main connection's backstop: only the worker can have moved these pages into the file.
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBeGreaterThan(10_000);
      db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
      const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
      for (let i = 0; i < 20; i++) db.transaction(() => Array.from({ length: 100 }, () => insert.run('x'.repeat(500))))();
      const before = statSync(file).size;
      const deadline = Date.now() + 5000;
      while (statSync(file).size < 500_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(statSync(file).size).toBeGreaterThan(Math.max(before, 500_000));
      expect(errors).toEqual([]);
    } finally {
      await checkpointer.stop();
      await checkpointer.stop(); // a second stop is a no-op
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finishes stop() in a process with nothing else to keep it alive', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-wal-'));
    const script = `
      const { openSqlite, useDurableStoreSettings } = require(${JSON.stringify(path.join(__dirname, 'sqlite'))});
      const { WalCheckpointer } = require(${JSON.stringify(path.join(__dirname, 'wal-checkpointer'))});
      const file = ${JSON.stringify(path.join(dir, 'store.sqlite'))};
      const db = openSqlite(file);
      useDurableStoreSettings(db);
      const checkpointer = new WalCheckpointer(db, file, () => undefined);
      checkpointer.stop().then(() => { db.close(); console.log('stopped'); });`;
    try {
      const out = execFileSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], {
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(out.trim()).toBe('stopped');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
