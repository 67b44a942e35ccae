import { snapshotFrom } from '../../../test/support/config-snapshot';
import { adminImpact } from './admin-impact';

const admin = async (settings: Record<string, unknown>) =>
  (await snapshotFrom({ agents: { list: [{ id: 'main' }] }, gateway: { admin: settings } })).config.gateway.admin;

describe('adminImpact', () => {
  it('names tokens added, removed and changed (role, rotation) and SSO mapping changes, never a token', async () => {
    const before = await admin({
      tokens: [
        { name: 'root', token: 'root-token-1111', role: 'admin' },
        { name: 'ci', token: 'ci-token-2222', role: 'viewer' },
        { name: 'old', token: 'old-token-3333', role: 'operator' },
      ],
      sso: { enabled: true, trustedProxies: ['127.0.0.1'], roleMapping: { sre: 'operator', dev: 'viewer' } },
    });
    const after = await admin({
      tokens: [
        { name: 'root', token: 'root-token-9999', role: 'admin' },
        { name: 'ci', token: 'ci-token-2222', role: 'operator' },
        { name: 'new', token: 'new-token-4444', role: 'viewer' },
      ],
      sso: { enabled: true, trustedProxies: ['127.0.0.1'], roleMapping: { sre: 'admin', qa: 'viewer' }, defaultRole: 'viewer' },
    });
    const impact = adminImpact(before, after);
    expect(impact).toEqual({
      tokensAdded: [{ name: 'new', role: 'viewer' }],
      tokensRemoved: [{ name: 'old', role: 'operator' }],
      tokensChanged: [
        { name: 'root', token: 'rotated' },
        { name: 'ci', role: { before: 'viewer', after: 'operator' } },
      ],
      ssoRoleMappingsAdded: [{ group: 'qa', role: 'viewer' }],
      ssoRoleMappingsRemoved: [{ group: 'dev', role: 'viewer' }],
      ssoRoleMappingsChanged: [{ group: 'sre', before: 'operator', after: 'admin' }],
      sso: [{ key: 'gateway.admin.sso.defaultRole', before: before.sso.defaultRole, after: 'viewer' }],
    });
    expect(JSON.stringify(impact)).not.toContain('-token-');
  });
});
