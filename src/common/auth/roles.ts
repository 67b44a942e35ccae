/** The admin roles, least to most: viewer reads, operator also acts (send, spawn, reindex, reload), admin also writes the config. */
export const ADMIN_ROLES = ['viewer', 'operator', 'admin'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

/** A caller's role; `none` is an authenticated identity that was granted nothing. */
export type CallerRole = AdminRole | 'none';

const RANK: Record<CallerRole, number> = { none: 0, viewer: 1, operator: 2, admin: 3 };

/** True when `have` includes everything `need` allows (viewer < operator < admin). */
export function roleAtLeast(have: CallerRole, need: AdminRole): boolean {
  return RANK[have] >= RANK[need];
}

/** The highest of the given roles, or undefined for an empty list. */
export function highestRole(roles: Iterable<AdminRole>): AdminRole | undefined {
  let best: AdminRole | undefined;
  for (const r of roles) if (!best || RANK[r] > RANK[best]) best = r;
  return best;
}

export function isAdminRole(value: unknown): value is AdminRole {
  return typeof value === 'string' && (ADMIN_ROLES as readonly string[]).includes(value);
}

/** What a handler under /admin requires when it declares no role: fail closed, as if it wrote the config. */
export const UNDECLARED_ROUTE_ROLE: AdminRole = 'admin';
