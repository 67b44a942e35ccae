import type { OpenAPIObject } from '@nestjs/swagger';
import type { AdminRole } from '../../common/auth/roles';
import { isAdminRole, UNDECLARED_ROUTE_ROLE } from '../../common/auth/roles';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** One admin operation of the OpenAPI document and the role it declares (x-clawgate-role). */
export interface AdminOperation {
  method: string;
  /** OpenAPI form, e.g. `/admin/agents/{id}`. */
  path: string;
  declared?: AdminRole;
  /** What the guard enforces: the declared role, or `admin` when none is declared. */
  enforced: AdminRole;
}

/** Every operation under /admin in the document, with its role. */
export function adminOperations(document: OpenAPIObject): AdminOperation[] {
  const out: AdminOperation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!/^\/admin(\/|$)/i.test(path)) continue;
    for (const method of METHODS) {
      const op = (item as Record<string, unknown>)[method] as Record<string, unknown> | undefined;
      if (!op) continue;
      const role = op['x-clawgate-role'];
      const declared = isAdminRole(role) ? role : undefined;
      out.push({ method: method.toUpperCase(), path, declared, enforced: declared ?? UNDECLARED_ROUTE_ROLE });
    }
  }
  return out;
}

/** `METHOD /path` of admin operations that declare no role (they are locked to `admin` until they do). */
export function undeclaredAdminOperations(document: OpenAPIObject): string[] {
  return adminOperations(document)
    .filter((op) => !op.declared)
    .map((op) => `${op.method} ${op.path}`);
}
