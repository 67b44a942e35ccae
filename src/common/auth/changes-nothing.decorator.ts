import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

/** Metadata key read by the admin role guard. */
export const CHANGES_NOTHING_KEY = 'clawgate:changes-nothing';

/**
 * Declares that an admin handler answered with POST changes nothing: it only computes an answer from its body
 * (validate, plan, a dry-run route). Such calls are not audit rows — the console makes them while an operator
 * types, and the audit log is for what changed state and what was refused (a denial is still recorded).
 * Shown in the OpenAPI document as `x-clawgate-changes-nothing: true`. See docs/admin-security.md#9-audit-log.
 */
export function ChangesNothing(): MethodDecorator {
  return applyDecorators(SetMetadata(CHANGES_NOTHING_KEY, true), ApiExtension('x-clawgate-changes-nothing', true));
}
