/**
 * Fields pino blanks in every log line, wherever they appear (headers, configs, payloads). Headers named by
 * the config (a custom SSO assertion header) are blanked by the request serializer (secret-headers.ts).
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
  '*.token',
  '*.apiKey',
  '*.outboundToken',
  '*.*.token',
  '*.*.apiKey',
  '*.*.outboundToken',
];
