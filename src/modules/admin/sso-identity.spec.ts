import { highestRole, roleAtLeast } from '../../common/auth/roles';
import { identityFromClaims, identityFromHeaders, parseGroups, roleForGroups } from './sso-identity';

const SSO = {
  enabled: true,
  trustedProxies: [],
  userHeader: 'X-Forwarded-User',
  emailHeader: 'X-Forwarded-Email',
  groupsHeader: 'X-Forwarded-Groups',
  roleMapping: { readers: 'viewer', ops: 'operator', platform: 'admin' } as const,
  defaultRole: 'none' as const,
};

describe('roles', () => {
  it('orders viewer < operator < admin, with none below everything', () => {
    expect(roleAtLeast('admin', 'operator')).toBe(true);
    expect(roleAtLeast('operator', 'operator')).toBe(true);
    expect(roleAtLeast('viewer', 'operator')).toBe(false);
    expect(roleAtLeast('none', 'viewer')).toBe(false);
    expect(highestRole(['viewer', 'admin', 'operator'])).toBe('admin');
    expect(highestRole([])).toBeUndefined();
  });
});

describe('SSO identity', () => {
  it('parses comma-separated groups and claim lists, dropping blanks and duplicates', () => {
    expect(parseGroups(' ops, readers ,,ops')).toEqual(['ops', 'readers']);
    expect(parseGroups(['ops', 3, ' platform '])).toEqual(['ops', 'platform']);
    expect(parseGroups(undefined)).toEqual([]);
  });

  it('takes the user header, else the e-mail header (header names are case-insensitive)', () => {
    expect(identityFromHeaders({ 'x-forwarded-user': 'alice', 'x-forwarded-groups': 'ops' }, SSO)).toEqual({
      subject: 'alice',
      groups: ['ops'],
    });
    expect(identityFromHeaders({ 'x-forwarded-email': 'bob@example.com' }, SSO)).toEqual({ subject: 'bob@example.com', groups: [] });
    expect(identityFromHeaders({ 'x-forwarded-groups': 'platform' }, SSO)).toBeUndefined();
    expect(identityFromHeaders({ 'x-forwarded-user': '   ' }, SSO)).toBeUndefined();
    expect(identityFromHeaders({ 'x-remote-user': 'carol' }, { ...SSO, userHeader: 'X-Remote-User' })).toEqual({
      subject: 'carol',
      groups: [],
    });
  });

  it('takes e-mail, user, preferred_username or sub from JWT claims, and their groups', () => {
    expect(identityFromClaims({ sub: '123', email: 'a@example.com', groups: ['ops'] })).toEqual({
      subject: 'a@example.com',
      groups: ['ops'],
    });
    expect(identityFromClaims({ sub: '123' })).toEqual({ subject: '123', groups: [] });
    expect(identityFromClaims({ groups: ['platform'] })).toBeUndefined();
  });

  it('maps groups to the highest mapped role, else the default role', () => {
    expect(roleForGroups(['readers', 'platform', 'ops'], SSO)).toBe('admin');
    expect(roleForGroups(['readers', 'strangers'], SSO)).toBe('viewer');
    expect(roleForGroups(['strangers'], SSO)).toBe('none');
    expect(roleForGroups([], { ...SSO, defaultRole: 'viewer' })).toBe('viewer');
  });

  it('never maps a group through Object.prototype', () => {
    expect(roleForGroups(['constructor', '__proto__', 'toString'], SSO)).toBe('none');
  });
});
