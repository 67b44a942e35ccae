import { Controller, Get } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError } from '../../common/errors/app-error';
import { RequiresRole } from '../../common/auth/requires-role.decorator';
import { AdminRoleGuard } from './admin-role.guard';
import { AdminPrincipal, setPrincipal } from './admin-principal';
import type { AdminAuthService } from './admin-auth.service';
import type { AuditLog } from './audit-log.service';
import { asHttp } from '../../../test/support/as-http';

@Controller('admin/things')
class ThingsController {
  @Get() @RequiresRole('viewer') list(): void {}
  @Get('forgotten') forgotten(): void {}
}

@Controller('public')
class PublicController {
  @Get() open(): void {}
}

function contextFor(cls: new () => object, method: string, url: string, principal?: AdminPrincipal): ExecutionContext {
  const req = { originalUrl: url, url, method: 'GET', headers: {}, socket: {} } as unknown as Request;
  if (principal) setPrincipal(req, principal);
  const res = { setHeader: jest.fn() } as unknown as Response;
  const handler = (cls.prototype as Record<string, unknown>)[method] as () => void;
  return {
    getType: () => 'http',
    getHandler: () => handler,
    getClass: () => cls,
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
  } as unknown as ExecutionContext;
}

describe('AdminRoleGuard', () => {
  const auth = { authenticate: jest.fn().mockResolvedValue({ denial: { status: 401, detail: 'no', challenge: 'Bearer' } }) };
  const audit = { track: jest.fn() };
  const guard = new AdminRoleGuard(new Reflector(), auth as unknown as AdminAuthService, audit as unknown as AuditLog);
  const viewer: AdminPrincipal = { subject: 'token:v', role: 'viewer', via: 'token' };
  const admin: AdminPrincipal = { subject: 'token:a', role: 'admin', via: 'token' };

  it('lets a role reaching the declared one through', async () => {
    await expect(guard.canActivate(contextFor(ThingsController, 'list', '/admin/things', viewer))).resolves.toBe(true);
  });

  it('fails closed: an /admin handler without @RequiresRole needs admin, and the 403 names it', async () => {
    const denied = guard.canActivate(contextFor(ThingsController, 'forgotten', '/admin/things/forgotten', viewer));
    await expect(denied).rejects.toBeInstanceOf(AppError);
    await expect(asHttp(denied)).rejects.toMatchObject({ status: 403, detail: expect.stringContaining('requires the "admin" role') });
    await expect(guard.canActivate(contextFor(ThingsController, 'forgotten', '/ADMIN/things/forgotten', admin))).resolves.toBe(true);
  });

  it('authenticates itself when the gate did not run, and answers 401 without an identity', async () => {
    await expect(asHttp(guard.canActivate(contextFor(ThingsController, 'list', '/admin/things')))).rejects.toMatchObject({ status: 401 });
    expect(auth.authenticate).toHaveBeenCalledTimes(1);
  });

  it('leaves routes outside /admin without @RequiresRole alone', async () => {
    await expect(guard.canActivate(contextFor(PublicController, 'open', '/public'))).resolves.toBe(true);
    expect(auth.authenticate).toHaveBeenCalledTimes(1);
  });
});
