import type { Request } from 'express';
import type { GatewaySettings } from '../config/config.types';
import type { ConfigStore } from '../config/config.store';
import { AdminAuthService, adminAuthConfigured } from './admin-auth.service';

type Admin = GatewaySettings['admin'];
const SSO_OFF: Admin['sso'] = {
  enabled: false,
  trustedProxies: [],
  userHeader: 'X-Forwarded-User',
  emailHeader: 'X-Forwarded-Email',
  groupsHeader: 'X-Forwarded-Groups',
  roleMapping: {},
  defaultRole: 'none',
};

function serviceWith(admin: Admin): AdminAuthService {
  const store = { current: () => ({ config: { gateway: { admin } } }) } as unknown as ConfigStore;
  return new AdminAuthService(store);
}
const req = (remoteAddress: string, headers: Record<string, string> = {}) =>
  ({ socket: { remoteAddress }, headers }) as unknown as Request;

describe('AdminAuthService', () => {
  const open: Admin = { tokens: [], sso: SSO_OFF, publicDocs: false };

  it('without configured auth: full access on loopback, 403 for everyone else', async () => {
    const auth = serviceWith(open);
    for (const local of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      await expect(auth.authenticate(req(local))).resolves.toEqual({ principal: { subject: 'loopback', role: 'admin', via: 'loopback' } });
    }
    const remote = await auth.authenticate(req('192.168.1.20'));
    expect(remote).toEqual({ denial: expect.objectContaining({ status: 403, detail: expect.stringContaining('loopback') }) });
    // Identity headers change nothing while SSO is off.
    await expect(auth.authenticate(req('192.168.1.20', { 'x-forwarded-user': 'alice' }))).resolves.toHaveProperty('denial.status', 403);
  });

  it('counts a token entry whose ${VAR} is unset as configured: loopback gets no free pass', async () => {
    const admin: Admin = { ...open, tokens: [{ name: 'ghost', token: undefined as unknown as string, role: 'admin' }] };
    expect(adminAuthConfigured(admin)).toBe(true);
    expect(adminAuthConfigured({ ...open, sso: { ...SSO_OFF, enabled: true } })).toBe(true);
    expect(adminAuthConfigured(open)).toBe(false);
    await expect(serviceWith(admin).authenticate(req('127.0.0.1'))).resolves.toEqual({
      denial: expect.objectContaining({ status: 401, challenge: 'Bearer realm="clawgate admin"' }),
    });
  });

  it('with tokens: the token decides from any address; a wrong one is invalid_token', async () => {
    const auth = serviceWith({ ...open, tokens: [{ name: 'ops', token: 'ops-token-123456789', role: 'operator' }] });
    await expect(auth.authenticate(req('203.0.113.5', { authorization: 'Bearer ops-token-123456789' }))).resolves.toEqual({
      principal: { subject: 'token:ops', role: 'operator', via: 'token' },
    });
    const wrong = await auth.authenticate(req('127.0.0.1', { authorization: 'Bearer ops-token-12345678X' }));
    expect(wrong).toEqual({ denial: expect.objectContaining({ status: 401, challenge: expect.stringContaining('invalid_token') }) });
  });

  it('SSO headers count only from a trusted peer (the TCP address, never X-Forwarded-For)', async () => {
    const auth = serviceWith({ ...open, sso: { ...SSO_OFF, enabled: true, trustedProxies: ['10.0.0.7'], roleMapping: { ops: 'operator' } } });
    const headers = { 'x-forwarded-user': 'alice', 'x-forwarded-groups': 'ops' };
    await expect(auth.authenticate(req('10.0.0.7', headers))).resolves.toEqual({ principal: { subject: 'sso:alice', role: 'operator', via: 'sso' } });
    await expect(auth.authenticate(req('10.0.0.8', { ...headers, 'x-forwarded-for': '10.0.0.7' }))).resolves.toHaveProperty('denial.status', 401);
    // Trusted peer, no identity headers: nobody.
    await expect(auth.authenticate(req('10.0.0.7'))).resolves.toHaveProperty('denial.status', 401);
    // Authenticated, no mapped group, defaultRole none: an identity with role none (the gate answers 403).
    await expect(auth.authenticate(req('10.0.0.7', { 'x-forwarded-user': 'bob' }))).resolves.toHaveProperty('principal.role', 'none');
  });
});
