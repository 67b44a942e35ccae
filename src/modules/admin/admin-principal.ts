import type { Request, Response } from 'express';
import type { CallerRole } from '../../common/auth/roles';
import { instanceOf, problem, writeProblem } from '../../common/errors/problem-details';

/** Who is calling the admin API, as established by AdminAuthService. */
export interface AdminPrincipal {
  /** `token:<name>`, `sso:<user or e-mail>`, or `loopback` (no auth configured, local client). */
  subject: string;
  role: CallerRole;
  via: 'token' | 'sso' | 'loopback';
}

const PRINCIPAL = Symbol('clawgate.adminPrincipal');
// Any request object can carry the principal; only this module reads or writes it.
type WithPrincipal = { [PRINCIPAL]?: AdminPrincipal };

export function getPrincipal(req: object): AdminPrincipal | undefined {
  return (req as WithPrincipal)[PRINCIPAL];
}

export function setPrincipal(req: object, principal: AdminPrincipal): void {
  (req as WithPrincipal)[PRINCIPAL] = principal;
}

/** Why a request was refused, before any handler ran. */
export interface AdminDenial {
  status: 401 | 403;
  detail: string;
  /** Value of WWW-Authenticate on a 401. */
  challenge?: string;
  /** Set on a 401: whether a credential was missing or refused (the refusal warning and metric). */
  refusal?: 'missing' | 'invalid';
}

export const ADMIN_REALM = 'Bearer realm="clawgate admin"';

/** A denial answered outside Nest (the express-level gate), in the same shape as the filter's. */
export function sendDenial(req: Request, res: Response, denial: AdminDenial): void {
  if (denial.challenge) res.setHeader('WWW-Authenticate', denial.challenge);
  writeProblem(res, problem(denial.status, denial.detail, { instance: instanceOf(req.originalUrl) }));
}

/** True for requests addressed to the admin API (routes are case-insensitive in express, so is this). */
export function isAdminPath(req: Request): boolean {
  const path = (req.originalUrl ?? req.url).split('?')[0].toLowerCase();
  return path === '/admin' || path.startsWith('/admin/');
}

/** Methods that change nothing; every other method on the admin API is a write (audited, checked for forgery). */
const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isWriteMethod(method: string): boolean {
  return !READ_METHODS.has(method.toUpperCase());
}
