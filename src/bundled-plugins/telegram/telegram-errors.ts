import { GrammyError, HttpError } from 'grammy';

/**
 * A Bot API failure in words for health, logs and receipts: Telegram's own description, with the account named.
 * Never the token: the Bot API's URLs carry it (`…/bot<token>/getMe`), and a network failure's cause (node-fetch's
 * FetchError) quotes the URL in its message, so of a cause only its code is told (ECONNREFUSED, ETIMEDOUT, …).
 */
export function describeTelegramError(accountId: string, error: unknown): string {
  if (error instanceof GrammyError) {
    if (error.error_code === 401) return `account ${accountId}: token rejected by Telegram (401 Unauthorized)`;
    if (error.error_code === 409)
      return `account ${accountId}: ${error.description} (another instance polls this bot, or a webhook is set)`;
    return `account ${accountId}: ${error.method} failed: ${error.error_code} ${error.description}`;
  }
  if (error instanceof HttpError) {
    return `account ${accountId}: the Bot API could not be reached (${causeCode(error.error) ?? 'network failure'})`;
  }
  return `account ${accountId}: ${withoutBotUrls(error instanceof Error ? error.message : String(error))}`;
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code === 401;
}

/** The system's code of a network failure (`ECONNREFUSED`), or its error's name (`AbortError`); never its message. */
function causeCode(cause: unknown): string | undefined {
  if (!(cause instanceof Error)) return undefined;
  const code = (cause as { code?: unknown }).code;
  if (typeof code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(code)) return code;
  return /^[A-Za-z]+$/.test(cause.name) && cause.name !== 'Error' ? cause.name : undefined;
}

/** Any Bot API path in a message we did not write ourselves loses its token. */
function withoutBotUrls(message: string): string {
  return message.replace(/\/bot[^/\s]+/g, '/bot<token>');
}
