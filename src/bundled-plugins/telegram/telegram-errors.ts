import { GrammyError, HttpError } from 'grammy';

/**
 * A Bot API failure in words for health, logs and receipts: Telegram's own description, with the account named.
 * Never the token: grammY's messages carry the method, not the URL (its `sensitiveLogs` stays off).
 */
export function describeTelegramError(accountId: string, error: unknown): string {
  if (error instanceof GrammyError) {
    if (error.error_code === 401) return `account ${accountId}: token rejected by Telegram (401 Unauthorized)`;
    if (error.error_code === 409)
      return `account ${accountId}: ${error.description} (another instance polls this bot, or a webhook is set)`;
    return `account ${accountId}: ${error.method} failed: ${error.error_code} ${error.description}`;
  }
  if (error instanceof HttpError) {
    const cause = error.error instanceof Error ? `: ${error.error.message}` : '';
    return `account ${accountId}: the Bot API could not be reached${cause}`;
  }
  return `account ${accountId}: ${error instanceof Error ? error.message : String(error)}`;
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code === 401;
}
