/** A place in a guild as `guilds.<id>` and `guilds.<id>.channels.<id|name>` describe it (OpenClaw's shape). */
export interface GuildChannelRule {
  allow?: boolean;
  enabled?: boolean;
  requireMention?: boolean;
  users?: (string | number)[];
}

export interface GuildRule {
  enabled?: boolean;
  requireMention?: boolean;
  users?: (string | number)[];
  channels?: Record<string, GuildChannelRule>;
}

export type GuildRules = Record<string, GuildRule>;

/** `channels.discord` as the plugin reads it (the manifest's schema has checked it; the gateway resolved `${VARS}`). */
export interface DiscordSection {
  enabled?: boolean;
  token?: string;
  api?: string;
  guilds?: GuildRules;
  accounts?: Record<string, { enabled?: boolean; token?: string; api?: string; guilds?: GuildRules; name?: string }>;
}

/** One bot to run. */
export interface DiscordAccountConfig {
  accountId: string;
  token: string;
  /** The REST API's base URL without the version and without a trailing slash (discord.js appends `/v10`). */
  api: string;
  /** Its guild rules: the account's own `guilds`, else the section's. */
  guilds?: GuildRules;
}

export const DEFAULT_API = 'https://discord.com/api';
export const DEFAULT_ACCOUNT = 'default';

/**
 * The accounts of the section, as OpenClaw reads them: each `accounts.<id>` with its own `token`; the section's own
 * `token` is the account `default`; `DISCORD_BOT_TOKEN` is the default account's token when the section has none and
 * lists no accounts. An account's `api` and `guilds` fall back to the section's. An account without a token is named
 * in `missing`, to be reported, not started.
 */
export function discordAccounts(
  section: DiscordSection,
  env: NodeJS.ProcessEnv = process.env,
): { accounts: DiscordAccountConfig[]; missing: string[] } {
  const api = (section.api ?? DEFAULT_API).replace(/\/+$/, '');
  const accounts: DiscordAccountConfig[] = [];
  const missing: string[] = [];
  const entries = Object.entries(section.accounts ?? {});
  const named = new Set(entries.map(([id]) => id));
  const defaultToken = section.token ?? (named.size ? undefined : env.DISCORD_BOT_TOKEN);
  const guilds = (own?: GuildRules) => own ?? section.guilds;
  if (defaultToken && !named.has(DEFAULT_ACCOUNT)) {
    accounts.push({ accountId: DEFAULT_ACCOUNT, token: defaultToken, api, ...(section.guilds ? { guilds: section.guilds } : {}) });
  }
  if (!defaultToken && !named.size) missing.push(DEFAULT_ACCOUNT);
  for (const [accountId, account] of entries) {
    if (account.enabled === false) continue;
    const token = account.token ?? (accountId === DEFAULT_ACCOUNT ? defaultToken : undefined);
    if (!token) {
      missing.push(accountId);
      continue;
    }
    const rules = guilds(account.guilds);
    accounts.push({ accountId, token, api: (account.api ?? api).replace(/\/+$/, ''), ...(rules ? { guilds: rules } : {}) });
  }
  return { accounts, missing };
}

/** Where a guild message was said, by the ids and names the rules may use. */
export interface GuildPlace {
  guildId: string;
  channelId: string;
  channelName?: string;
  /** A thread's parent channel: a thread follows its parent's rule. */
  parentId?: string;
  parentName?: string;
  senderId: string;
  senderUsername?: string;
}

/**
 * What `guilds` says about a guild message: `listed` (the rule that admits it, with its mention gating), `refused`
 * (a rule shuts it out: a disabled guild or channel, a channel not among those listed, a sender not on `users`), or
 * `unlisted` (the rules do not name the guild: the gateway's `groupPolicy` decides).
 */
export type GuildVerdict = { kind: 'listed'; requireMention: boolean } | { kind: 'refused'; reason: string } | { kind: 'unlisted' };

export function judgeGuildMessage(rules: GuildRules | undefined, place: GuildPlace): GuildVerdict {
  const guild = rules?.[place.guildId] ?? rules?.['*'];
  if (!guild) return { kind: 'unlisted' };
  if (guild.enabled === false) return { kind: 'refused', reason: `guild ${place.guildId} is disabled (guilds.${place.guildId}.enabled)` };
  let channel: GuildChannelRule | undefined;
  if (guild.channels && Object.keys(guild.channels).length) {
    const names = [place.parentId, place.parentName, place.channelId, place.channelName].filter((n): n is string => !!n);
    const key = names.find((n) => guild.channels![n] !== undefined) ?? (guild.channels['*'] ? '*' : undefined);
    if (key === undefined) return { kind: 'refused', reason: `channel ${place.channelId} is not under guilds.${place.guildId}.channels` };
    channel = guild.channels[key];
    if (channel.allow === false || channel.enabled === false) {
      return { kind: 'refused', reason: `channel ${key} is not allowed (guilds.${place.guildId}.channels.${key}.allow)` };
    }
  }
  const users = channel?.users ?? guild.users;
  if (users?.length && !listedSender(users, place))
    return { kind: 'refused', reason: `sender ${place.senderId} is not on the users of guild ${place.guildId}` };
  return { kind: 'listed', requireMention: channel?.requireMention ?? guild.requireMention ?? true };
}

function listedSender(users: (string | number)[], place: GuildPlace): boolean {
  const list = users.map((u) => String(u));
  if (list.includes('*') || list.includes(place.senderId)) return true;
  const name = place.senderUsername;
  return !!name && (list.includes(name) || list.includes(`@${name}`));
}
