import { ErrorCode } from '@slack/web-api';

/** Slack's answers that mean the token itself is refused (https://api.slack.com/methods/auth.test#errors). */
const REJECTED = new Set(['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'token_expired', 'not_allowed_token_type']);

interface CodedError {
  code?: string;
  data?: { error?: string };
  statusCode?: number;
  original?: Error;
  message?: string;
}

/**
 * A Slack failure in words for health, logs and receipts, naming the account and which token (`bot token`,
 * `app token`) when it is the token Slack refused. Never a token: the client's errors carry Slack's error code,
 * not the request.
 */
export function describeSlackError(accountId: string, error: unknown, token: 'bot token' | 'app token' = 'bot token'): string {
  const e = (error ?? {}) as CodedError;
  if (e.code === ErrorCode.PlatformError && e.data?.error) {
    if (REJECTED.has(e.data.error))
      return `account ${accountId}: ${token === 'bot token' ? 'token' : token} rejected by Slack (${e.data.error})`;
    return `account ${accountId}: Slack refused the call (${e.data.error})`;
  }
  if (e.code === ErrorCode.RequestError)
    return `account ${accountId}: the Slack API could not be reached: ${e.original?.message ?? 'request failed'}`;
  if (e.code === ErrorCode.HTTPError) return `account ${accountId}: the Slack API answered HTTP ${e.statusCode}`;
  if (e.code === ErrorCode.RateLimitedError) return `account ${accountId}: rate limited by Slack`;
  return `account ${accountId}: ${error instanceof Error ? error.message : String(error)}`;
}

/** True when Slack refused the token (retrying will not help until the config changes). */
export function isTokenRejected(error: unknown): boolean {
  const e = (error ?? {}) as CodedError;
  return e.code === ErrorCode.PlatformError && REJECTED.has(e.data?.error ?? '');
}
