/** Fields pino blanks in every log line, wherever they appear (headers, configs, payloads). */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-forwarded-access-token"]',
  'headers.authorization',
  '*.token',
  '*.apiKey',
  '*.outboundToken',
  '*.*.token',
  '*.*.apiKey',
  '*.*.outboundToken',
];
