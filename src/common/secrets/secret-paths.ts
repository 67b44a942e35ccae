/**
 * Which config paths hold credentials. One rule for the whole gateway: the loader uses it to treat an unset
 * `${VAR}` there as a warning, the validator to never quote such a value, the admin API to redact it, and
 * the secret masker to learn the values it must never let out.
 */

/** Last-segment names that hold credentials, compared case-insensitively. */
const SECRET_NAMES = new Set(['token', 'outboundtoken', 'apikey']);
const SECRET_SUFFIXES = ['token', 'secret', 'apikey', 'password'];

/**
 * Default secret detector for the clawgate config: a key named token, outboundToken, apiKey, or
 * any key ending in Token/Secret/ApiKey/Password; `gateway.state.url`; and every value of a provider header map
 * (`models.providers.<name>.headers.*`), since those usually carry `Authorization` and friends.
 */
export function isSecretConfigPath(segments: ReadonlyArray<string | number>): boolean {
  // A database URL normally carries its password (`postgres://user:password@host/db`).
  if (segments.length === 3 && segments[0] === 'gateway' && segments[1] === 'state' && segments[2] === 'url') return true;
  if (segments.length >= 5 && segments[0] === 'models' && segments[1] === 'providers' && segments[3] === 'headers') {
    return true;
  }
  const last = segments[segments.length - 1];
  if (typeof last !== 'string') return false;
  const lower = last.toLowerCase();
  return SECRET_NAMES.has(lower) || SECRET_SUFFIXES.some((suffix) => lower.endsWith(suffix));
}
