import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import type { AdminRole } from '../config/schema/gateway.schema';

/** Metadata key read by the admin auth guard. */
export const ADMIN_ROLE_KEY = 'clawgate:admin-role';

/**
 * The least role an admin handler needs (SPEC §11): `viewer` reads, `operator` also sends/spawns/reindexes/
 * reloads, `admin` also writes the config. Declared on every `/admin` handler; shown in Swagger as
 * `x-clawgate-role` so API users see what they need.
 */
export function RequiresRole(role: AdminRole): MethodDecorator {
  return applyDecorators(SetMetadata(ADMIN_ROLE_KEY, role), ApiExtension('x-clawgate-role', role));
}
