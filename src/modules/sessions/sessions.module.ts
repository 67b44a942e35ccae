import { Module } from '@nestjs/common';
import { SqliteSessionStore } from './sqlite-session.store';
import { SESSION_STORE } from './session-store.port';
import { SessionsAdminService } from './sessions-admin.service';
import { SessionsController } from './sessions.controller';

/**
 * The session store and the admin session endpoints. Not global: the modules that use sessions
 * (policy, runtime, tools, channels) import it, which keeps the dependency visible. One SqliteSessionStore per
 * process — Nest shares a module's providers across every importer. See docs/sessions.md#session-store.
 */
@Module({
  controllers: [SessionsController],
  providers: [{ provide: SESSION_STORE, useClass: SqliteSessionStore }, SessionsAdminService],
  exports: [SESSION_STORE],
})
export class SessionsModule {}
