import { badRequest, jsonParam, optionalInt } from './telegram-params';

export interface FakeWebhook {
  url: string;
  secretToken?: string;
  maxConnections: number;
  allowedUpdates?: string[];
  lastError?: { date: number; message: string };
}

/**
 * The webhook `setWebhook`'s parameters ask for (https://core.telegram.org/bots/api#setwebhook), checked as the
 * Bot API checks them; undefined for an empty `url`, which removes the webhook.
 */
export function webhookOf(params: Record<string, unknown>): FakeWebhook | undefined {
  const url = typeof params.url === 'string' ? params.url : '';
  if (!url) return undefined;
  if (!/^https?:\/\//.test(url)) throw badRequest('bad webhook: An HTTPS URL must be provided for webhook');
  const secret = params.secret_token;
  if (secret !== undefined && (typeof secret !== 'string' || !/^[A-Za-z0-9_-]{1,256}$/.test(secret))) {
    throw badRequest('secret token contains unallowed characters');
  }
  const maxConnections = optionalInt(params.max_connections, 'max_connections') ?? 40;
  if (maxConnections < 1 || maxConnections > 100) throw badRequest('bad webhook: max_connections must be between 1 and 100');
  const allowed = params.allowed_updates === undefined ? undefined : jsonParam<string[]>(params.allowed_updates, 'allowed_updates');
  return {
    url,
    maxConnections,
    ...(typeof secret === 'string' ? { secretToken: secret } : {}),
    ...(allowed ? { allowedUpdates: allowed } : {}),
  };
}

/** `getWebhookInfo`'s WebhookInfo: an empty `url` while the bot uses getUpdates. */
export function webhookInfo(hook: FakeWebhook | undefined, pendingUpdates: number): Record<string, unknown> {
  if (!hook) return { url: '', has_custom_certificate: false, pending_update_count: pendingUpdates };
  return {
    url: hook.url,
    has_custom_certificate: false,
    pending_update_count: pendingUpdates,
    max_connections: hook.maxConnections,
    ...(hook.allowedUpdates ? { allowed_updates: hook.allowedUpdates } : {}),
    ...(hook.lastError ? { last_error_date: hook.lastError.date, last_error_message: hook.lastError.message } : {}),
  };
}
