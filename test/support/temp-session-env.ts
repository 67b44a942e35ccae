import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ConfigStore } from '../../src/modules/config/config.store';
import { openSqlite } from '../../src/common/storage/sqlite';
import { sessionDatabasePath } from '../../src/modules/sessions/session-database';
import { SqliteSessionStore } from '../../src/modules/sessions/sqlite-session.store';
import { snapshotFrom } from './config-snapshot';
import { ServingConfigStore } from './serving-config-store';

/** A state dir in tmp plus a ConfigStore serving a config with the given agents in it. */
export interface TempSessionEnv {
  stateDir: string;
  config: ConfigStore;
  sessionsDir(agentId: string): string;
  /** A fresh store over the same dir: what a restarted process would see. Closed by cleanup(). */
  newStore(): SqliteSessionStore;
  /**
   * Overwrites the newest transcript row with `text`, as another process editing the database behind the
   * gateway's back could (an operator with sqlite3); returns the row's id.
   */
  damageLastLine(text: string): number;
  cleanup(): Promise<void>;
}

export async function tempSessionEnv(configuredAgents: string[]): Promise<TempSessionEnv> {
  const stateDir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-sessions-'));
  const sessionsDir = (id: string) => path.join(stateDir, 'agents', id, 'sessions');
  const config = new ServingConfigStore(await snapshotFrom({ agents: { list: configuredAgents.map((id) => ({ id })) } }, { stateDir }));
  const stores: SqliteSessionStore[] = [];
  return {
    stateDir,
    config,
    sessionsDir,
    newStore: () => {
      const store = new SqliteSessionStore(config);
      stores.push(store);
      return store;
    },
    damageLastLine: (text) => {
      const db = openSqlite(sessionDatabasePath(stateDir));
      try {
        const { id } = db.prepare('SELECT max(id) AS id FROM transcript_lines').get() as { id: number };
        db.prepare('UPDATE transcript_lines SET line = ? WHERE id = ?').run(text, id);
        return id;
      } finally {
        db.close();
      }
    },
    cleanup: async () => {
      for (const store of stores) await store.onApplicationShutdown();
      await fs.rm(stateDir, { recursive: true, force: true });
    },
  };
}
