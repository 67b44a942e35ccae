import { AppError } from '../errors/app-error';
import { ErrorCode } from '../errors/error-code';

/** `"abc"`, `W/"abc"` or `abc` → `abc`. */
export function stripEtag(value: string): string {
  return value
    .trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1');
}

/**
 * Config writes are optimistic: the caller must say which revision it read (GET /admin/config ETag).
 * Missing → 428, so a script cannot overwrite someone else's edit by accident.
 */
export function requireIfMatch(header: string | undefined): string {
  if (!header || !header.trim()) {
    throw new AppError(
      ErrorCode.PreconditionRequired,
      'send If-Match with the revision you read (the ETag of GET /admin/config) so concurrent edits are not lost',
    );
  }
  return stripEtag(header);
}

/** As requireIfMatch, and `If-Match: *` (any current revision, RFC 9110) → undefined. */
export function requireIfMatchOrAny(header: string | undefined): string | undefined {
  const revision = requireIfMatch(header);
  return revision === '*' ? undefined : revision;
}
