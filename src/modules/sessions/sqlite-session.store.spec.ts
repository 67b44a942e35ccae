import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { describeSessionStoreContract } from '../../../test/support/session-store-contract';
import { tempSessionEnv, TempSessionEnv } from '../../../test/support/temp-session-env';
import { openSqliteReadOnly } from '../../common/storage/sqlite';
import { sessionDatabasePath } from './session-database';
import type { SessionEntry } from './session-store.port';
import type { SqliteSessionStore } from './sqlite-session.store';
import { asHttp } from '../../../test/support/as-http';

/** Entries as the file layout kept them, one `sessions.json` per agent: imported when the next store opens. */
async function writeFileLayout(env: TempSessionEnv, entries: SessionEntry[]): Promise<void> {
  for (const agentId of new Set(entries.map((e) => e.agentId))) {
    const dir = env.sessionsDir(agentId);
    await fs.mkdir(dir, { recursive: true });
    const index = Object.fromEntries(entries.filter((e) => e.agentId === agentId).map((e) => [e.sessionKey, e]));
    await fs.writeFile(path.join(dir, 'sessions.json'), JSON.stringify(index));
  }
}

describeSessionStoreContract('SQLite', async () => {
  const env = await tempSessionEnv(['main', 'ops']);
  const opened: SqliteSessionStore[] = [];
  return {
    open: async () => {
      for (const store of opened) await store.flush();
      const store = env.newStore();
      opened.push(store);
      return store;
    },
    seed: (entries) => writeFileLayout(env, entries),
    damageLastLine: async (text) => env.damageLastLine(text),
    dispose: () => env.cleanup(),
  };
});

/** What only the SQLite store shows: the rows in its file, read by another connection as another process would. */
describe('SqliteSessionStore on disk', () => {
  let env: TempSessionEnv;
  let store: SqliteSessionStore;
  beforeEach(async () => {
    env = await tempSessionEnv(['main', 'ops']);
    store = env.newStore();
  });
  afterEach(async () => {
    await env.cleanup();
  });

  const onDisk = <T>(sql: string, ...params: unknown[]): T[] => {
    const db = openSqliteReadOnly(sessionDatabasePath(env.stateDir));
    try {
      return db.prepare(sql).all(...params) as T[];
    } finally {
      db.close();
    }
  };

  it('commits a new entry before getOrCreate resolves', async () => {
    const entry = await store.getOrCreate('agent:main:main');
    expect(onDisk('SELECT session_id FROM sessions WHERE session_key = ?', 'agent:main:main')).toEqual([{ session_id: entry.sessionId }]);
  });

  it('writes one row for many concurrent getOrCreate calls, and none for malformed keys', async () => {
    const all = await Promise.all(Array.from({ length: 20 }, () => store.getOrCreate('agent:ops:main')));
    await expect(asHttp(store.getOrCreate('agent:main:'))).rejects.toMatchObject({ status: 400 });
    expect(onDisk('SELECT session_id FROM sessions')).toEqual([{ session_id: all[0].sessionId }]);
  });

  it('commits an append before it resolves', async () => {
    await store.append('agent:main:a', { role: 'user', text: 'one' });
    expect(onDisk<{ line: string }>('SELECT line FROM transcript_lines').map((r) => JSON.parse(r.line).text)).toEqual(['one']);
  });
});
