import { Logger, Module } from '@nestjs/common';
import { postgresTarget } from '../../common/storage/postgres-errors';
import { storeFor } from '../../common/storage/store-for';
import { ConfigStore } from '../config';
import { PgSessionStore } from './pg-session.store';
import { SESSION_STORE, type SessionStore } from './session-store.port';
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
      // Nest runs the hooks of the store returned: the SQLite one opens its database at module init (so the one-time
      // import of the file layout never runs inside a request), and each closes at the app's last hook.
      useFactory: (config: ConfigStore) =>
        storeFor<SessionStore>(config.current().config.gateway.state, {
          sqlite: () => new SqliteSessionStore(config),
          postgres: async (url) => {
            const store = await PgSessionStore.open(url, { configuredAgents: () => [...config.current().agentsById.keys()] });
            new Logger('sessions').log(`sessions and transcripts are stored in PostgreSQL at ${postgresTarget(url)}`);
            return store;
          },
        }),
      inject: [ConfigStore],
    },
    SessionsAdminService,
  ],
  exports: [SESSION_STORE],
})
export class SessionsModule {}
