/**
 * Which config paths hold credentials. One rule for the whole gateway: the loader uses it to treat an unset
 * `${VAR}` there as a warning, the validator to never quote such a value, the admin API to redact it, and
 * the secret masker to learn the values it must never let out.
 */

/** Last-segment names that hold credentials, compared case-insensitively. */
const SECRET_NAMES = new Set(['token', 'outboundtoken', 'apikey', 'privatekey', 'encryptkey', 'authtag', 'passphrase']);
const SECRET_SUFFIXES = ['token', 'secret', 'apikey', 'password'];
/** Maps whose every value is a credential: environment variables and HTTP headers. */
const SECRET_MAPS = new Set(['env', 'headers']);

/**
 * Default secret detector for the clawgate config: a key named token, outboundToken, apiKey, privateKey,
 * encryptKey, authTag or passphrase, or any key ending in Token/Secret/ApiKey/Password; `gateway.state.url`;
 * every value of a header map (`models.providers.<name>.headers.*`, `mcp.servers.<name>.headers.*`) or of an
 * environment map (top-level `env`, `skills.entries.<name>.env.*`), since those carry `Authorization` and API
 * keys; and whatever sits under a `serviceAccount` (a Google service-account key). The OpenClaw names among them
 * matter for the settings clawgate recognises without using: they stay in the document the admin API shows.
 */
export function isSecretConfigPath(segments: ReadonlyArray<string | number>): boolean {
  if (declared.length && declared.some((pattern) => matches(pattern, segments))) return true;
  // A database URL normally carries its password (`postgres://user:password@host/db`).
  if (segments.length === 3 && segments[0] === 'gateway' && segments[1] === 'state' && segments[2] === 'url') return true;
  if (segments.length >= 2 && SECRET_MAPS.has(String(segments[segments.length - 2]))) return true;
  // `env.vars.<NAME>`; the rest of top-level `env` (shellEnv) holds switches, not values.
  if (segments.length === 3 && segments[0] === 'env' && segments[1] === 'vars') return true;
  if (segments.includes('serviceAccount')) return true;
  const last = segments[segments.length - 1];
  if (typeof last !== 'string') return false;
  const lower = last.toLowerCase();
  return SECRET_NAMES.has(lower) || SECRET_SUFFIXES.some((suffix) => lower.endsWith(suffix));
}

/**
 * Paths declared secret by what the config names (a plugin's manifest: `plugins.entries.<id>.config.<key>`,
 * `channels.<id>.<key>`), `*` matching any one segment. Once declared, a path stays secret for the life of the
 * process: a secret is never shown because a later load no longer declares it, and a candidate config that is
 * only validated may declare some too.
 */
const declared: string[][] = [];
const declaredKeys = new Set<string>();

export function declareSecretPaths(patterns: ReadonlyArray<ReadonlyArray<string>>): void {
  for (const pattern of patterns) {
    const key = JSON.stringify(pattern);
    if (declaredKeys.has(key) || !pattern.length) continue;
    declaredKeys.add(key);
    declared.push([...pattern]);
  }
}

function matches(pattern: ReadonlyArray<string>, segments: ReadonlyArray<string | number>): boolean {
  return pattern.length === segments.length && pattern.every((p, i) => p === '*' || p === String(segments[i]));
}
