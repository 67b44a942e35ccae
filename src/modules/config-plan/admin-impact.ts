import type { GatewaySettings } from '../config';
import type { AdminRole } from '../../common/auth/roles';
import { changedValues, splitKeys, type ValueChange } from './value-change';

type AdminSettings = GatewaySettings['admin'];

export interface AdminTokenChange {
  name: string;
  role?: { before: AdminRole; after: AdminRole };
  /** The secret itself changed; never shown. */
  token?: 'rotated';
}

export interface AdminImpact {
  tokensAdded: Array<{ name: string; role: AdminRole }>;
  tokensRemoved: Array<{ name: string; role: AdminRole }>;
  tokensChanged: AdminTokenChange[];
  ssoRoleMappingsAdded: Array<{ group: string; role: AdminRole }>;
  ssoRoleMappingsRemoved: Array<{ group: string; role: AdminRole }>;
  ssoRoleMappingsChanged: Array<{ group: string; before: AdminRole; after: AdminRole }>;
  /** SSO settings other than the mapping (switch, default role, headers, proxies, JWT issuer/audience/keys URL). */
  sso: ValueChange[];
}

/** Who may use the admin API, before and after; tokens are named by their `name`, never by their value. */
export function adminImpact(before: AdminSettings, after: AdminSettings): AdminImpact {
  const tokensBefore = new Map(before.tokens.map((t) => [t.name, t]));
  const tokensAfter = new Map(after.tokens.map((t) => [t.name, t]));
  const tokens = splitKeys(tokensBefore.keys(), tokensAfter.keys());
  const tokensChanged: AdminTokenChange[] = [];
  for (const name of tokens.kept) {
    const was = tokensBefore.get(name)!;
    const now = tokensAfter.get(name)!;
    const change: AdminTokenChange = { name };
    if (was.role !== now.role) change.role = { before: was.role, after: now.role };
    if (was.token !== now.token) change.token = 'rotated';
    if (change.role || change.token) tokensChanged.push(change);
  }
  const mapBefore = before.sso.roleMapping;
  const mapAfter = after.sso.roleMapping;
  const groups = splitKeys(Object.keys(mapBefore), Object.keys(mapAfter));
  return {
    tokensAdded: tokens.added.map((name) => ({ name, role: tokensAfter.get(name)!.role })),
    tokensRemoved: tokens.removed.map((name) => ({ name, role: tokensBefore.get(name)!.role })),
    tokensChanged,
    ssoRoleMappingsAdded: groups.added.map((group) => ({ group, role: mapAfter[group] })),
    ssoRoleMappingsRemoved: groups.removed.map((group) => ({ group, role: mapBefore[group] })),
    ssoRoleMappingsChanged: groups.kept
      .filter((group) => mapBefore[group] !== mapAfter[group])
      .map((group) => ({ group, before: mapBefore[group], after: mapAfter[group] })),
    sso: changedValues(ssoKeys(before.sso, after.sso)),
  };
}

function ssoKeys(was: AdminSettings['sso'], now: AdminSettings['sso']): Array<[string, unknown, unknown]> {
  const at = 'gateway.admin.sso';
  const jwt = (s: AdminSettings['sso']) =>
    s.jwt
      ? { header: s.jwt.header, jwksUrl: s.jwt.jwksUrl, issuer: s.jwt.issuer, audience: s.jwt.audience, algorithms: s.jwt.algorithms }
      : null;
  return [
    [`${at}.enabled`, was.enabled, now.enabled],
    [`${at}.defaultRole`, was.defaultRole, now.defaultRole],
    [`${at}.trustedProxies`, was.trustedProxies, now.trustedProxies],
    [`${at}.userHeader`, was.userHeader, now.userHeader],
    [`${at}.emailHeader`, was.emailHeader, now.emailHeader],
    [`${at}.groupsHeader`, was.groupsHeader, now.groupsHeader],
    [`${at}.jwt`, jwt(was), jwt(now)],
  ];
}
