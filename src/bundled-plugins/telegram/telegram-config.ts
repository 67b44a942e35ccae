/** `channels.telegram` as the plugin reads it (the manifest's schema has checked it; the gateway resolved `${VARS}`). */
export interface TelegramSection {
  enabled?: boolean;
  botToken?: string;
  apiRoot?: string;
  webhookUrl?: string;
  webhookSecret?: string;
  webhookPath?: string;
  accounts?: Record<string, TelegramAccountSection>;
}

export interface TelegramAccountSection {
  enabled?: boolean;
  botToken?: string;
  apiRoot?: string;
  webhookUrl?: string;
  webhookSecret?: string;
  webhookPath?: string;
  name?: string;
}

/** Webhook mode: Telegram posts the account's updates to `url`, which reaches the plugin's route at `path`. */
export interface TelegramWebhookConfig {
  /** The public HTTPS address given to `setWebhook`. */
  url: string;
  /** Sent by Telegram in `X-Telegram-Bot-Api-Secret-Token` with every update; a request without it is refused. */
  secret: string;
  /** Below `/plugins/telegram`, starting with `/`: where the gateway receives the posts. */
  path: string;
}

/** One bot to run. */
export interface TelegramAccountConfig {
  accountId: string;
  botToken: string;
  /** The Bot API's base URL, without a trailing slash (grammY refuses one). */
  apiRoot: string;
  /** Set: updates arrive by webhook; unset: long polling. */
  webhook?: TelegramWebhookConfig;
}

export const DEFAULT_API_ROOT = 'https://api.telegram.org';
export const DEFAULT_ACCOUNT = 'default';

/** Where an account's webhook posts are received when `webhookPath` does not say: `/plugins/telegram/webhook/<id>`. */
export function defaultWebhookPath(accountId: string): string {
  return `/webhook/${accountId}`;
}

/**
 * The accounts of the section, as OpenClaw reads them: each `accounts.<id>` with its own `botToken`; the section's
 * own `botToken` is the account `default` (also when `accounts` lists others); `TELEGRAM_BOT_TOKEN` is the
 * default account's token when the section has none. `apiRoot` and `webhookSecret` of an account fall back to the
 * section's; `webhookUrl` and `webhookPath` do not (each bot needs its own address), except for the account `default`.
 * An account that cannot run is named in `missing` with what it lacks, to be reported, not started.
 */
export function telegramAccounts(
  section: TelegramSection,
  env: NodeJS.ProcessEnv = process.env,
): { accounts: TelegramAccountConfig[]; missing: { accountId: string; lacks: string }[] } {
  const root = (section.apiRoot ?? DEFAULT_API_ROOT).replace(/\/+$/, '');
  const accounts: TelegramAccountConfig[] = [];
  const missing: { accountId: string; lacks: string }[] = [];
  const entries = Object.entries(section.accounts ?? {});
  const named = new Set(entries.map(([id]) => id));
  const defaultToken = section.botToken ?? (named.size ? undefined : env.TELEGRAM_BOT_TOKEN);
  const candidates: [string, TelegramAccountSection, string][] = [];
  if (defaultToken && !named.has(DEFAULT_ACCOUNT))
    candidates.push([DEFAULT_ACCOUNT, { ...section, botToken: defaultToken }, 'channels.telegram']);
  if (!defaultToken && !named.size) missing.push({ accountId: DEFAULT_ACCOUNT, lacks: 'botToken (channels.telegram.botToken)' });
  for (const [accountId, account] of entries) {
    if (account.enabled === false) continue;
    const own =
      accountId === DEFAULT_ACCOUNT
        ? { ...section, botToken: defaultToken, ...account }
        : { ...account, webhookSecret: account.webhookSecret ?? section.webhookSecret };
    candidates.push([accountId, own, `channels.telegram.accounts.${accountId}`]);
  }
  const paths = new Map<string, string>();
  for (const [accountId, a, at] of candidates) {
    if (!a.botToken) {
      missing.push({ accountId, lacks: `botToken (${at}.botToken)` });
      continue;
    }
    let webhook: TelegramWebhookConfig | undefined;
    if (a.webhookUrl) {
      // The schema refuses a webhookUrl without a secret; this is the account whose secret came from nowhere.
      if (!a.webhookSecret) {
        missing.push({ accountId, lacks: `webhookSecret (${at}.webhookSecret: webhook mode checks each update with it)` });
        continue;
      }
      const path = a.webhookPath ?? defaultWebhookPath(accountId);
      const owner = paths.get(path);
      if (owner !== undefined) {
        missing.push({ accountId, lacks: `webhookPath of its own (${at}.webhookPath: "${path}" is account ${owner}'s)` });
        continue;
      }
      paths.set(path, accountId);
      webhook = { url: a.webhookUrl, secret: a.webhookSecret, path };
    }
    accounts.push({ accountId, botToken: a.botToken, apiRoot: (a.apiRoot ?? root).replace(/\/+$/, ''), ...(webhook ? { webhook } : {}) });
  }
  return { accounts, missing };
}

/** What of an account's config its running bot depends on: a change of it restarts the account. */
export function accountFingerprint(config: TelegramAccountConfig): string {
  return JSON.stringify([config.botToken, config.apiRoot, config.webhook?.url, config.webhook?.secret, config.webhook?.path]);
}
