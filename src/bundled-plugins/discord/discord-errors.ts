import { DiscordAPIError, DiscordjsErrorCodes, HTTPError, RateLimitError } from 'discord.js';

/**
 * A Discord failure in words for health, logs and receipts: Discord's own message and code, with the account named.
 * Never the token: discord.js's errors carry the route and Discord's body, not the Authorization header.
 */
export function describeDiscordError(accountId: string, error: unknown): string {
  if (isTokenRejected(error)) return `account ${accountId}: token rejected by Discord (401 Unauthorized)`;
  if (error instanceof DiscordAPIError) {
    return `account ${accountId}: ${error.method.toUpperCase()} ${routeOf(error.url)} failed: ${error.status} ${error.message} (code ${String(error.code)})`;
  }
  if (error instanceof HTTPError)
    return `account ${accountId}: ${error.method.toUpperCase()} ${routeOf(error.url)} failed: ${error.status} ${error.message}`;
  if (error instanceof RateLimitError) return `account ${accountId}: rate limited on ${error.route} for ${error.retryAfter} ms`;
  const message = error instanceof Error ? error.message : String(error);
  return `account ${accountId}: ${message}`;
}

/** A rejected token: discord.js's TokenInvalid (GET /gateway/bot answered 401), a 401 from REST, or Gateway close 4004. */
export function isTokenRejected(error: unknown): boolean {
  if (error instanceof DiscordAPIError || error instanceof HTTPError) return error.status === 401;
  if (error instanceof Error && 'code' in error && error.code === DiscordjsErrorCodes.TokenInvalid) return true;
  return error instanceof Error && error.message === 'Authentication failed';
}

/** The URL's path from the API version on (`/channels/1/messages`): what went wrong where, without the host. */
function routeOf(url: string): string {
  try {
    return new URL(url).pathname.replace(/^.*\/v\d+/, '');
  } catch {
    return url;
  }
}
