import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { Controller, Get } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { ExecutionContext } from '@nestjs/common';
import { snapshotFrom } from '../../../test/support/config-snapshot';
import { ServingConfigStore } from '../../../test/support/serving-config-store';
import { asHttp } from '../../../test/support/as-http';
import { AppError } from '../../common/errors/app-error';
import { RequiresRole } from '../../common/auth/requires-role.decorator';
import { AdminRoleGuard } from './admin-role.guard';
import { AdminPrincipal, setPrincipal } from './admin-principal';
import { AdminAuthService } from './admin-auth.service';
import { AuditLog } from './audit-log.service';
import { auditFilePath, FileAuditStore } from './audit-store';

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
  // A request from no address with no credentials; the response is a real (unsent) node response.
  const req = { originalUrl: url, url, method: 'GET', headers: {}, socket: {} };
  if (principal) setPrincipal(req, principal);
  const res = new ServerResponse(new IncomingMessage(new Socket()));
  const handler = (cls.prototype as Record<string, unknown>)[method] as () => void;
  return new ExecutionContextHost([req, res], cls, handler);
}

describe('AdminRoleGuard', () => {
  let auth: AdminAuthService;
  let guard: AdminRoleGuard;
  beforeAll(async () => {
    // A token is configured, so a request without one is a 401.
    const admin = { tokens: [{ name: 'root', token: 'root-token-0123456789', role: 'admin' }] };
    const config = new ServingConfigStore(await snapshotFrom({ gateway: { admin } }));
    auth = new AdminAuthService(config);
    jest.spyOn(auth, 'authenticate');
    guard = new AdminRoleGuard(new Reflector(), auth, new AuditLog(config, new FileAuditStore(auditFilePath(config.stateDir))));
  });
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
