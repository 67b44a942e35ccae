/** `channels.slack` as the plugin reads it (the manifest's schema has checked it; the gateway resolved `${VARS}`). */
export interface SlackSection {
  enabled?: boolean;
  mode?: 'socket' | 'http';
  botToken?: string;
  appToken?: string;
  signingSecret?: string;
  apiUrl?: string;
  accounts?: Record<string, SlackAccountSection>;
}

export interface SlackAccountSection {
  enabled?: boolean;
  name?: string;
  mode?: 'socket' | 'http';
  botToken?: string;
  appToken?: string;
  signingSecret?: string;
  apiUrl?: string;
}

/** One Slack app (bot) to run. */
export interface SlackAccountConfig {
  accountId: string;
  mode: 'socket' | 'http';
  botToken: string;
  /** Socket Mode's app-level token (`xapp-…`). */
  appToken?: string;
  /** The Events API's signing secret (HTTP mode). */
  signingSecret?: string;
  /** The Web API's base URL, ending in `/`. */
  apiUrl: string;
}

export const DEFAULT_API_URL = 'https://slack.com/api/';
export const DEFAULT_ACCOUNT = 'default';

/**
 * The accounts of the section, as OpenClaw reads them: each `accounts.<id>` with its own tokens (an account's
 * missing keys fall back to the section's, except the bot token of a named account: two accounts are two Slack
 * apps); the section's own `botToken` is the account `default`; `SLACK_BOT_TOKEN` / `SLACK_APP_TOKEN` are the default
 * account's tokens when the section has none and lists no accounts. An account that cannot run is named in
 * `missing` with what it lacks (the key's dotted path), to be reported, not started.
 */
export function slackAccounts(
  section: SlackSection,
  env: NodeJS.ProcessEnv = process.env,
): { accounts: SlackAccountConfig[]; missing: { accountId: string; lacks: string }[] } {
  const accounts: SlackAccountConfig[] = [];
  const missing: { accountId: string; lacks: string }[] = [];
  const entries = Object.entries(section.accounts ?? {});
  const named = new Set(entries.map(([id]) => id));
  const fromEnv = !named.size;
  const base: SlackAccountSection = {
    ...section,
    botToken: section.botToken ?? (fromEnv ? env.SLACK_BOT_TOKEN : undefined),
    appToken: section.appToken ?? (fromEnv ? env.SLACK_APP_TOKEN : undefined),
  };
  const candidates: [string, SlackAccountSection, string][] = [];
  if (!named.has(DEFAULT_ACCOUNT) && (base.botToken || !named.size)) candidates.push([DEFAULT_ACCOUNT, base, 'channels.slack']);
  for (const [accountId, account] of entries) {
    if (account.enabled === false) continue;
    const own = accountId === DEFAULT_ACCOUNT ? { ...base, ...account } : { ...base, botToken: undefined, appToken: undefined, ...account };
    candidates.push([accountId, own, `channels.slack.accounts.${accountId}`]);
  }
  for (const [accountId, a, at] of candidates) {
    const mode = a.mode ?? 'socket';
    if (!a.botToken) {
      missing.push({ accountId, lacks: `${at}.botToken` });
      continue;
    }
    if (mode === 'socket' && !a.appToken) {
      missing.push({ accountId, lacks: `${at}.appToken (Socket Mode needs the app-level token)` });
      continue;
    }
    if (mode === 'http' && !a.signingSecret) {
      missing.push({ accountId, lacks: `${at}.signingSecret (HTTP mode verifies each request with it)` });
      continue;
    }
    accounts.push({
      accountId,
      mode,
      botToken: a.botToken,
      ...(a.appToken ? { appToken: a.appToken } : {}),
      ...(a.signingSecret ? { signingSecret: a.signingSecret } : {}),
      apiUrl: withSlash(a.apiUrl ?? DEFAULT_API_URL),
    });
  }
  return { accounts, missing };
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

/** What of an account's config its running clients depend on: a change of it restarts the account. */
export function accountFingerprint(config: SlackAccountConfig): string {
  return JSON.stringify([config.mode, config.botToken, config.appToken, config.signingSecret, config.apiUrl]);
}
