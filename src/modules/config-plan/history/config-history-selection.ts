import type { Logger } from '@nestjs/common';
import { postgresTarget } from '../../../common/storage/postgres-errors';
import type { StateSettings } from '../../config';
import type { ConfigHistoryStore } from './config-history-store.port';
import { PgConfigHistoryStore } from './pg-config-history.store';
import { SqliteConfigHistoryStore } from './sqlite-config-history.store';

/**
 * The config history `gateway.state` asks for, read once at start (the key takes effect at a restart, as for the
 * other stores): the state dir's SQLite file, or the PostgreSQL table the replicas share. The one not chosen is never
 * opened, so with PostgreSQL no config-history.sqlite is made. An unreachable server rejects (and fails the start).
 */
export async function openConfigHistory(state: StateSettings, stateDir: string, logger: Logger): Promise<ConfigHistoryStore> {
  if (state.backend !== 'postgres') return new SqliteConfigHistoryStore(stateDir);
  const store = await PgConfigHistoryStore.open(state.url);
  logger.log(`the config history is stored in PostgreSQL at ${postgresTarget(state.url)}`);
  return store;
}
