import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ProblemDto } from '../errors/problem.dto';
import type { AdminRole } from './roles';

/** Metadata key read by the admin auth guard. */
export const ADMIN_ROLE_KEY = 'clawgate:admin-role';

/** Name of the OpenAPI security scheme for admin bearer tokens (declared by the document builder). */
export const ADMIN_SECURITY = 'admin-token';

/**
 * The least role an admin handler needs: `viewer` reads, `operator` also sends/spawns/reindexes/
 * reloads, `admin` also writes the config. Declared on every `/admin` handler; shown in Swagger as
 * `x-clawgate-role` so API users see what they need, together with the bearer scheme and the 401/403
 * answers — one decorator, so a new handler cannot document half of it. Roles: docs/admin-security.md#2-roles.
 */
export function RequiresRole(role: AdminRole): MethodDecorator {
  return applyDecorators(
    SetMetadata(ADMIN_ROLE_KEY, role),
    ApiExtension('x-clawgate-role', role),
    ApiBearerAuth(ADMIN_SECURITY),
    ApiUnauthorizedResponse({ type: ProblemDto, description: 'No identity: no valid admin token or SSO identity.' }),
    ApiForbiddenResponse({ type: ProblemDto, description: `The caller's role is below "${role}".` }),
  );
}
