import { snapshotFrom } from '../../../test/support/config-snapshot';
import { ServingConfigStore } from '../../../test/support/serving-config-store';
import type { GatewaySettings } from '../config/config.types';
import { AdminAuthService, adminAuthConfigured } from './admin-auth.service';
import type { PeerRequest } from './peer-address';

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

/** Normalized admin settings have the shape of the `gateway.admin` document, so they load as written. */
const loadedAdmin = async (admin: Admin): Promise<Admin> => (await snapshotFrom({ gateway: { admin } })).config.gateway.admin;

async function serviceWith(admin: Admin): Promise<AdminAuthService> {
  return new AdminAuthService(new ServingConfigStore(await snapshotFrom({ gateway: { admin } })));
}
const req = (remoteAddress: string, headers: Record<string, string> = {}): PeerRequest => ({ socket: { remoteAddress }, headers });

describe('AdminAuthService', () => {
  const open: Admin = { tokens: [], sso: SSO_OFF, publicDocs: false };

  it('without configured auth: full access on loopback, 403 for everyone else', async () => {
    const auth = await serviceWith(open);
    for (const local of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      await expect(auth.authenticate(req(local))).resolves.toEqual({ principal: { subject: 'loopback', role: 'admin', via: 'loopback' } });
    }
    const remote = await auth.authenticate(req('192.168.1.20'));
    expect(remote).toEqual({ denial: expect.objectContaining({ status: 403, detail: expect.stringContaining('loopback') }) });
    // Identity headers change nothing while SSO is off.
    await expect(auth.authenticate(req('192.168.1.20', { 'x-forwarded-user': 'alice' }))).resolves.toHaveProperty('denial.status', 403);
  });

  it('counts a token entry whose ${VAR} is unset as configured: loopback gets no free pass', async () => {
    // ${GHOST} is unset: the loader keeps the entry without its token.
    const written: Admin = { ...open, tokens: [{ name: 'ghost', token: '${GHOST}', role: 'admin' }] };
    const admin = await loadedAdmin(written);
    expect(admin.tokens[0].token).toBeUndefined();
    expect(adminAuthConfigured(admin)).toBe(true);
    expect(adminAuthConfigured({ ...open, sso: { ...SSO_OFF, enabled: true } })).toBe(true);
    expect(adminAuthConfigured(open)).toBe(false);
    await expect((await serviceWith(written)).authenticate(req('127.0.0.1'))).resolves.toEqual({
      denial: expect.objectContaining({ status: 401, challenge: 'Bearer realm="clawgate admin"' }),
    });
  });

  it('with tokens: the token decides from any address; a wrong one is invalid_token', async () => {
    const auth = await serviceWith({ ...open, tokens: [{ name: 'ops', token: 'ops-token-123456789', role: 'operator' }] });
    await expect(auth.authenticate(req('203.0.113.5', { authorization: 'Bearer ops-token-123456789' }))).resolves.toEqual({
      principal: { subject: 'token:ops', role: 'operator', via: 'token' },
    });
    const wrong = await auth.authenticate(req('127.0.0.1', { authorization: 'Bearer ops-token-12345678X' }));
    expect(wrong).toEqual({ denial: expect.objectContaining({ status: 401, challenge: expect.stringContaining('invalid_token') }) });
  });

  it('SSO headers count only from a trusted peer (the TCP address, never X-Forwarded-For)', async () => {
    const auth = await serviceWith({
      ...open,
      sso: { ...SSO_OFF, enabled: true, trustedProxies: ['10.0.0.7'], roleMapping: { ops: 'operator' } },
    });
    const headers = { 'x-forwarded-user': 'alice', 'x-forwarded-groups': 'ops' };
    await expect(auth.authenticate(req('10.0.0.7', headers))).resolves.toEqual({
      principal: { subject: 'sso:alice', role: 'operator', via: 'sso' },
    });
    await expect(auth.authenticate(req('10.0.0.8', { ...headers, 'x-forwarded-for': '10.0.0.7' }))).resolves.toHaveProperty(
      'denial.status',
      401,
    );
    // Trusted peer, no identity headers: nobody.
    await expect(auth.authenticate(req('10.0.0.7'))).resolves.toHaveProperty('denial.status', 401);
    // Authenticated, no mapped group, defaultRole none: an identity with role none (the gate answers 403).
    await expect(auth.authenticate(req('10.0.0.7', { 'x-forwarded-user': 'bob' }))).resolves.toHaveProperty('principal.role', 'none');
  });
});
