/** What a blanked field holds in a log line. */
export const LOG_CENSOR = '[redacted]';

/**
 * Fields pino blanks in every log line by their exact path (headers of a logged request). Headers named by the
 * config (a custom SSO assertion header) are blanked by the request serializer (secret-headers.ts).
 */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'req.headers.cookie',
  // Signed identity assertions of SSO proxies (oauth2-proxy, Pomerium, Cloudflare Access, Google IAP).
  'req.headers["x-forwarded-access-token"]',
  'req.headers["x-pomerium-jwt-assertion"]',
  'req.headers["cf-access-jwt-assertion"]',
  'req.headers["x-goog-iap-jwt-assertion"]',
  // AWS ALB's OIDC assertion and access token.
  'req.headers["x-amzn-oidc-data"]',
  'req.headers["x-amzn-oidc-accesstoken"]',
  'headers.authorization',
];

/** Secret field names blanked one and two levels down in any logged object (`x.token`, `x.y.apiKey`). */
const NESTED_SECRET_FIELDS: ReadonlySet<string> = new Set(['token', 'apiKey', 'outboundToken']);

/**
 * Blanks `token`, `apiKey` and `outboundToken` in the objects a log line carries, one or two levels below the line
 * (what the redact paths `*.token` and `*.*.token` meant), as pino's log formatter. Written out rather than left to
 * wildcard redact paths, which cost several times the rest of a line; a flat line (every event line) is one pass
 * over its keys, and an object is copied only when it holds such a field.
 */
export function redactNestedSecrets(line: Record<string, unknown>): Record<string, unknown> {
  let out = line;
  for (const key in line) {
    const value = line[key];
    if (value === null || typeof value !== 'object') continue;
    const cleaned = blankLevel(value as Record<string, unknown>, true);
    if (cleaned !== value) {
      if (out === line) out = { ...line };
      out[key] = cleaned;
    }
  }
  return out;
}

function blankLevel(object: Record<string, unknown>, descend: boolean): Record<string, unknown> {
  if (Array.isArray(object)) return object;
  let out = object;
  for (const key in object) {
    const value = object[key];
    let next = value;
    if (NESTED_SECRET_FIELDS.has(key) && value !== undefined) next = LOG_CENSOR;
    else if (descend && value !== null && typeof value === 'object') next = blankLevel(value as Record<string, unknown>, false);
    if (next !== value) {
      if (out === object) out = { ...object };
      out[key] = next;
    }
  }
  return out;
}
