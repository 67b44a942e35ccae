import type { IncomingHttpHeaders } from 'node:http';
import type { GatewaySettings } from '../config';
import type { AdminRole } from '../../common/auth/roles';
import { CallerRole, highestRole } from '../../common/auth/roles';

type SsoSettings = GatewaySettings['admin']['sso'];

/** Who the SSO proxy says the caller is. */
export interface SsoIdentity {
  /** User name, else e-mail address. */
  subject: string;
  groups: string[];
}

/** Longer values are not an identity a proxy would send; refusing them keeps audit lines sane. */
const MAX_SUBJECT_LENGTH = 320;

function headerText(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  if (typeof value !== 'string') return undefined; // absent, or a list (only set-cookie arrives as one)
  const trimmed = value.trim();
  return trimmed || undefined;
}

function subjectOf(...candidates: unknown[]): string | undefined {
  for (const c of candidates) {
    if (typeof c === 'string' && c.trim() && c.trim().length <= MAX_SUBJECT_LENGTH) return c.trim();
  }
  return undefined;
}

/** Groups from a header or claim: a comma-separated string or a list of strings; blanks dropped. */
export function parseGroups(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  return [
    ...new Set(
      items
        .filter((g): g is string => typeof g === 'string')
        .map((g) => g.trim())
        .filter(Boolean),
    ),
  ];
}

/** Identity from the plain proxy headers (user, else e-mail; groups). Undefined when neither is present. */
export function identityFromHeaders(headers: IncomingHttpHeaders, sso: SsoSettings): SsoIdentity | undefined {
  const subject = subjectOf(headerText(headers, sso.userHeader), headerText(headers, sso.emailHeader));
  if (!subject) return undefined;
  return { subject, groups: parseGroups(headerText(headers, sso.groupsHeader)) };
}

/**
 * Identity from verified JWT claims. E-mail first: it is what Pomerium, Cloudflare Access and Google IAP
 * all put in their assertions, and what operators recognise in an audit log; `sub` is the last resort.
 */
export function identityFromClaims(claims: Record<string, unknown>): SsoIdentity | undefined {
  const subject = subjectOf(claims.email, claims.user, claims.preferred_username, claims.sub);
  if (!subject) return undefined;
  return { subject, groups: parseGroups(claims.groups) };
}

/** The highest role any of the groups maps to; `defaultRole` when none does ('none' = no access). */
export function roleForGroups(groups: readonly string[], sso: Pick<SsoSettings, 'roleMapping' | 'defaultRole'>): CallerRole {
  const mapped: AdminRole[] = [];
  for (const g of groups) {
    // Own-property lookup: a group called "constructor" or "__proto__" must not reach Object.prototype.
    if (Object.prototype.hasOwnProperty.call(sso.roleMapping, g)) mapped.push(sso.roleMapping[g]);
  }
  return highestRole(mapped) ?? sso.defaultRole;
}
