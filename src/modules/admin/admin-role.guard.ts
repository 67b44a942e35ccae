import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import type { AdminRole } from '../../common/auth/roles';
import { ADMIN_ROLE_KEY } from '../../common/auth/requires-role.decorator';
import { getPrincipal, isAdminPath, setPrincipal } from './admin-principal';
import { roleAtLeast, UNDECLARED_ROUTE_ROLE } from '../../common/auth/roles';
import { AdminAuthService } from './admin-auth.service';
import { AuditLog, markChangesNothing } from './audit-log.service';
import { CHANGES_NOTHING_KEY } from '../../common/auth/changes-nothing.decorator';

/**
 * Global guard: every handler under /admin (and any handler declaring @RequiresRole elsewhere) runs only
 * when the caller's role reaches the declared one. A handler under /admin that declares nothing requires
 * `admin` — forgetting the decorator locks a route down instead of opening it.
 */
@Injectable()
export class AdminRoleGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AdminAuthService,
    private readonly audit: AuditLog,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    const declared = this.reflector.getAllAndOverride<AdminRole | undefined>(ADMIN_ROLE_KEY, [context.getHandler(), context.getClass()]);
    if (!declared && !isAdminPath(req)) return true;
    if (this.reflector.getAllAndOverride<boolean | undefined>(CHANGES_NOTHING_KEY, [context.getHandler(), context.getClass()])) {
      markChangesNothing(req);
    }

    let principal = getPrincipal(req);
    if (!principal) {
      // Not behind the gate (a @RequiresRole handler outside /admin): authenticate here, same rules.
      this.audit.track(req, res);
      const outcome = await this.auth.authenticate(req);
      if ('denial' in outcome) {
        if (outcome.denial.challenge) res.setHeader('WWW-Authenticate', outcome.denial.challenge);
        throw new AppError(outcome.denial.status === 401 ? ErrorCode.Unauthenticated : ErrorCode.Forbidden, outcome.denial.detail);
      }
      principal = outcome.principal;
      setPrincipal(req, principal);
    }
    const need = declared ?? UNDECLARED_ROUTE_ROLE;
    if (roleAtLeast(principal.role, need)) return true;
    const have = principal.role === 'none' ? 'no role' : `role "${principal.role}"`;
    throw new AppError(ErrorCode.Forbidden, `this endpoint requires the "${need}" role; ${principal.subject} has ${have}`);
  }
}
