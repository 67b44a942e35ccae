import { Module } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { AdminAuthService } from './admin-auth.service';
import { AdminGate } from './admin-gate';
import { AdminRoleGuard } from './admin-role.guard';
import { AuditController } from './audit.controller';
import { ConfigActorInterceptor } from './config-actor.interceptor';
import { AuditLog } from './audit-log.service';
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
