import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ConfigStore } from '../../src/modules/config/config.store';
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
    cleanup: async () => {
      for (const store of stores) await store.onApplicationShutdown();
      await fs.rm(stateDir, { recursive: true, force: true });
    },
  };
}
