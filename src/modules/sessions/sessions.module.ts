import { Module } from '@nestjs/common';
import { postgresTarget } from '../../common/storage/postgres-errors';
import { ConfigStore } from '../config';
import { PgSessionStore } from './pg-session.store';
import { SelectedSessionStore } from './session-store-selection';
import { SESSION_STORE } from './session-store.port';
import { SessionsAdminService } from './sessions-admin.service';
import { SessionsController } from './sessions.controller';
import { SqliteSessionStore } from './sqlite-session.store';

/**
 * The session store and the admin session endpoints. Not global: the modules that use sessions
 * (policy, runtime, tools, channels) import it, which keeps the dependency visible. One store per process — Nest
 * shares a module's providers across every importer — chosen by `gateway.state` (SQLite in the state dir, or
 * PostgreSQL shared by replicas). See docs/sessions.md#session-store.
 */
@Module({
  controllers: [SessionsController],
  providers: [
    {
      provide: SESSION_STORE,
      useFactory: (config: ConfigStore) =>
        new SelectedSessionStore(config, {
          sqlite: () => {
            const store = new SqliteSessionStore(config);
            // Opened now, so the one-time import of the file layout never runs inside a request.
            store.onModuleInit();
            return { store, close: () => store.onApplicationShutdown() };
          },
          postgres: async (url) => {
            const store = await PgSessionStore.open(url, { configuredAgents: () => [...config.current().agentsById.keys()] });
            return { store, close: () => store.close() };
          },
          describe: postgresTarget,
        }),
      inject: [ConfigStore],
    },
    SessionsAdminService,
  ],
  exports: [SESSION_STORE],
})
export class SessionsModule {}
