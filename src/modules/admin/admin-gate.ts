import { Injectable, Logger } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { internalProblem, writeProblem } from '../../common/errors/problem-details';
import { ConfigStore } from '../config';
import { AuthRefusals } from '../metrics';
import { AdminDenial, sendDenial, setPrincipal } from './admin-principal';
import { peerAddress } from './peer-address';
import { AdminAuthService } from './admin-auth.service';
import { AuditLog } from './audit-log.service';
import { requestForgeryRefusal } from './request-forgery';
import { type AdminRole, roleAtLeast } from '../../common/auth/roles';

/** Everything the gate covers: the admin API and its documentation (UI, assets, JSON, YAML). */
export const ADMIN_HTTP_PATHS = ['/admin', '/docs', '/docs-json', '/docs-yaml'];

/**
 * Express-level gate in front of ADMIN_HTTP_PATHS, mounted before body parsing and before Swagger: it
 * authenticates the caller (or refuses with 401/403 at once, so an anonymous client cannot tell an existing
 * route from a missing one and never gets a body parsed), refuses writes a page of another site could have forged
 * (403, request-forgery.ts), records the request for the audit log, and leaves the principal on the request.
 * Which role a route needs is decided later by AdminRoleGuard, which knows the handler; the docs need `viewer` and
 * are decided here.
 */
@Injectable()
export class AdminGate {
  private readonly logger = new Logger('admin-auth');

  constructor(
    private readonly config: ConfigStore,
    private readonly auth: AdminAuthService,
    private readonly audit: AuditLog,
    private readonly refusals: AuthRefusals,
  ) {}

  readonly handler: RequestHandler = (req, res, next) => {
    this.handle(req, res, next).catch((err: unknown) => {
      // Fail closed, and say nothing about why: the details are in the log.
      this.logger.error(`admin authentication failed: ${(err as Error).stack ?? String(err)}`);
      writeProblem(res, internalProblem());
    });
  };

  private async handle(req: Request, res: Response, next: NextFunction): Promise<void> {
    this.audit.track(req, res);
    const docs = req.baseUrl.toLowerCase().startsWith('/docs');
    if (docs && this.config.current().config.gateway.admin.publicDocs) return next();
    const outcome = await this.auth.authenticate(req);
    if ('denial' in outcome) return this.deny(req, res, outcome.denial);
    setPrincipal(req, outcome.principal);
    if (outcome.principal.role === 'none') {
      // Authenticated by the SSO proxy, but no group maps to a role and defaultRole is "none".
      return this.deny(req, res, {
        status: 403,
        detail: `${outcome.principal.subject} has no admin role (no group in gateway.admin.sso.roleMapping, defaultRole "none")`,
      });
    }
    // A write a page of another site could have made the caller's browser send (its SSO cookie, its loopback address).
    const forged = requestForgeryRefusal(req, this.config.current().config.gateway);
    if (forged) return this.deny(req, res, forged);
    next();
  }

  /**
   * The gate and the role guard in one, for a route outside the admin API that an admin role guards (a plugin's
   * route with `auth: "viewer" | "operator" | "admin"`): the same identities, the same forgery check for writes, the
   * same audit. True when the caller may go on; otherwise the refusal (401/403) has been answered.
   */
  async admits(req: Request, res: Response, need: AdminRole): Promise<boolean> {
    this.audit.track(req, res);
    const outcome = await this.auth.authenticate(req);
    if ('denial' in outcome) {
      this.deny(req, res, outcome.denial);
      return false;
    }
    const { principal } = outcome;
    setPrincipal(req, principal);
    if (!roleAtLeast(principal.role, need)) {
      const have = principal.role === 'none' ? 'no role' : `role "${principal.role}"`;
      this.deny(req, res, { status: 403, detail: `this route requires the "${need}" role; ${principal.subject} has ${have}` });
      return false;
    }
    const forged = requestForgeryRefusal(req, this.config.current().config.gateway);
    if (forged) {
      this.deny(req, res, forged);
      return false;
    }
    return true;
  }

  private deny(req: Request, res: Response, denial: AdminDenial): void {
    // A refused credential is the operator's business (a revoked token still in use, someone guessing): warned and counted.
    if (denial.refusal) this.refusals.refused('admin', req, denial.refusal);
    // The audit log has every denial; this line helps while setting up a proxy (peer address included).
    this.logger.debug(
      `${req.method} ${req.originalUrl.split('?')[0]} from ${peerAddress(req) ?? '?'} denied (${denial.status}): ${denial.detail}`,
    );
    sendDenial(req, res, denial);
  }
}
