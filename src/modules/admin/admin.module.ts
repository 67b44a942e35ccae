import { Module } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { storeFor } from '../../common/storage/store-for';
import { ConfigStore } from '../config';
import { AdminAuthService } from './admin-auth.service';
import { AdminGate } from './admin-gate';
import { AdminRoleGuard } from './admin-role.guard';
import { AuditController } from './audit.controller';
import { ConfigActorInterceptor } from './config-actor.interceptor';
import { AuditLog } from './audit-log.service';
import { AUDIT_STORE, type AuditStore, auditFilePath, FileAuditStore, PgAuditStore } from './audit-store';
import { SecretShield } from './secret-shield.service';
import { WhoAmIController } from './whoami.controller';

/**
 * Admin API security: who may call /admin and /docs (AdminGate + AdminRoleGuard), the audit
 * log, and the secret safety net for responses and logs. bootstrap.ts mounts the gate and the response
 * masker on the express app, ahead of body parsing and Swagger.
 * Described in docs/admin-security.md#admin-api-security.
 */
@Module({
  controllers: [AuditController, WhoAmIController],
  providers: [
    {
      provide: AUDIT_STORE,
      // The store gateway.state names: the state dir's audit.jsonl, or the table replicas share, made at the first entry
      // (the audit log never fails the start). The audit log closes it after its last entry.
      useFactory: (config: ConfigStore) =>
        storeFor<AuditStore>(config.current().config.gateway.state, {
          sqlite: () => new FileAuditStore(auditFilePath(config.stateDir)),
          postgres: async (url) => PgAuditStore.atFirstUse(url),
        }),
      inject: [ConfigStore],
    },
    AdminAuthService,
    AdminGate,
    AuditLog,
    SecretShield,
    { provide: APP_GUARD, useClass: AdminRoleGuard },
    { provide: APP_INTERCEPTOR, useClass: ConfigActorInterceptor },
  ],
  exports: [AdminGate, SecretShield, AuditLog],
})
export class AdminModule {}
