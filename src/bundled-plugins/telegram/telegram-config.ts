/** `channels.telegram` as the plugin reads it (the manifest's schema has checked it; the gateway resolved `${VARS}`). */
export interface TelegramSection {
  enabled?: boolean;
  botToken?: string;
  apiRoot?: string;
  accounts?: Record<string, { enabled?: boolean; botToken?: string; apiRoot?: string; name?: string }>;
}

/** One bot to run. */
export interface TelegramAccountConfig {
  accountId: string;
  botToken: string;
  /** The Bot API's base URL, without a trailing slash (grammY refuses one). */
  apiRoot: string;
}

export const DEFAULT_API_ROOT = 'https://api.telegram.org';
export const DEFAULT_ACCOUNT = 'default';

/**
 * The accounts of the section, as OpenClaw reads them: each `accounts.<id>` with its own `botToken`; the section's
 * own `botToken` is the account `default` (also when `accounts` lists others); `TELEGRAM_BOT_TOKEN` is the
 * default account's token when the section has none. `apiRoot` of an account falls back to the section's.
 * An account without a token is named in `missing`, to be reported, not started.
 */
export function telegramAccounts(
  section: TelegramSection,
  env: NodeJS.ProcessEnv = process.env,
): { accounts: TelegramAccountConfig[]; missing: string[] } {
  const root = (section.apiRoot ?? DEFAULT_API_ROOT).replace(/\/+$/, '');
  const accounts: TelegramAccountConfig[] = [];
  const missing: string[] = [];
  const entries = Object.entries(section.accounts ?? {});
  const named = new Set(entries.map(([id]) => id));
  const defaultToken = section.botToken ?? (named.size ? undefined : env.TELEGRAM_BOT_TOKEN);
  if (defaultToken && !named.has(DEFAULT_ACCOUNT)) accounts.push({ accountId: DEFAULT_ACCOUNT, botToken: defaultToken, apiRoot: root });
  if (!defaultToken && !named.size) missing.push(DEFAULT_ACCOUNT);
  for (const [accountId, account] of entries) {
    if (account.enabled === false) continue;
    const token = account.botToken ?? (accountId === DEFAULT_ACCOUNT ? defaultToken : undefined);
    if (!token) {
      missing.push(accountId);
      continue;
    }
    accounts.push({ accountId, botToken: token, apiRoot: (account.apiRoot ?? root).replace(/\/+$/, '') });
  }
  return { accounts, missing };
}
