import { timingSafeEqual } from 'node:crypto';
import { secretDigest } from '../../common/secrets/secret-match';

/** The header Telegram sends the webhook's `secret_token` in (https://core.telegram.org/bots/api#setwebhook). */
export const WEBHOOK_SECRET_HEADER = 'x-telegram-bot-api-secret-token';

/**
 * Checks that a webhook post is Telegram's: its `X-Telegram-Bot-Api-Secret-Token` must equal the account's
 * `webhookSecret`, compared as SHA-256 digests in constant time (neither the secret's bytes nor its length show in the
 * timing). Returns what is wrong, or undefined when the post carries the secret.
 */
export function webhookSecretProblem(secret: string, headers: Readonly<Record<string, string | string[] | undefined>>): string | undefined {
  const raw = headers[WEBHOOK_SECRET_HEADER];
  const given = Array.isArray(raw) ? raw[0] : raw;
  if (!given) return 'the X-Telegram-Bot-Api-Secret-Token header is required';
  if (!timingSafeEqual(secretDigest(given), secretDigest(secret))) return 'the X-Telegram-Bot-Api-Secret-Token header does not match';
  return undefined;
}
