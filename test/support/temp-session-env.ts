import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ConfigStore } from '../../src/modules/config/config.store';
import { FileSessionStore } from '../../src/modules/sessions/file-session.store';
import { snapshotFrom } from './config-snapshot';
import { ServingConfigStore } from './serving-config-store';

/** A state dir in tmp plus a ConfigStore serving a config with the given agents in it. */
export interface TempSessionEnv {
  stateDir: string;
  config: ConfigStore;
  sessionsDir(agentId: string): string;
  /** A fresh store over the same dir: what a restarted process would see. */
  newStore(): FileSessionStore;
  cleanup(): Promise<void>;
}

export async function tempSessionEnv(configuredAgents: string[]): Promise<TempSessionEnv> {
  const stateDir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-sessions-'));
  const sessionsDir = (id: string) => path.join(stateDir, 'agents', id, 'sessions');
  const config = new ServingConfigStore(await snapshotFrom({ agents: { list: configuredAgents.map((id) => ({ id })) } }, { stateDir }));
  return {
    stateDir,
    config,
    sessionsDir,
    newStore: () => new FileSessionStore(config),
    cleanup: () => fs.rm(stateDir, { recursive: true, force: true }),
  };
}
