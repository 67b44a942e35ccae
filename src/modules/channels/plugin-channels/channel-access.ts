import type { ChannelInboundMessage } from '../../../plugin-sdk';
import { isRecord } from '../../../common/is-record';

/** The access keys of one account: its `accounts.<accountId>` entry over the section's own (docs/channels.md). */
export interface ChannelAccess {
  dmPolicy: 'pairing' | 'allowlist' | 'open' | 'disabled';
  allowFrom: string[];
  groupPolicy: 'allowlist' | 'open' | 'disabled';
  groupAllowFrom: string[];
  groups: Record<string, GroupAccess>;
  allowBots: boolean;
}

/** One entry of `groups` (a group id or `"*"`). */
export interface GroupAccess {
  requireMention?: boolean;
  enabled?: boolean;
  /** The senders who may trigger the agent in this group, in place of the channel's `groupAllowFrom` (OpenClaw's per-group allowFrom). */
  allowFrom?: Array<string | number>;
}

/** What the policies decided: go on to routing, ask the sender to pair, or ignore the message (and why). */
export type AccessDecision = { kind: 'route' } | { kind: 'pair' } | { kind: 'ignored'; reason: string };

type AccessKey = 'dmPolicy' | 'allowFrom' | 'groupPolicy' | 'groupAllowFrom' | 'groups' | 'channels' | 'allowBots';

/** The account's access settings, defaults filled: pairing for DMs, an allowlist for groups, no bots. */
export function accessOf(section: Record<string, unknown>, accountId: string): ChannelAccess {
  const accounts = isRecord(section.accounts) ? section.accounts : {};
  const account = Object.prototype.hasOwnProperty.call(accounts, accountId) && isRecord(accounts[accountId]) ? accounts[accountId] : {};
  const value = (key: AccessKey): unknown => (account[key] !== undefined ? account[key] : section[key]);
  const list = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => String(x)) : []);
  const groups = value('groups');
  return {
    dmPolicy: (value('dmPolicy') as ChannelAccess['dmPolicy'] | undefined) ?? 'pairing',
    allowFrom: list(value('allowFrom')),
    groupPolicy: (value('groupPolicy') as ChannelAccess['groupPolicy'] | undefined) ?? 'allowlist',
    groupAllowFrom: list(value('groupAllowFrom')),
    groups: { ...slackChannels(value('channels')), ...(isRecord(groups) ? (groups as ChannelAccess['groups']) : {}) },
    allowBots: value('allowBots') === true,
  };
}

/**
 * OpenClaw's Slack section lists its allowed channels under `channels.<id>` (with `allow: false` for `enabled:
 * false`) where other channels say `groups`: they are the same list to the policies.
 */
function slackChannels(channels: unknown): ChannelAccess['groups'] {
  if (!isRecord(channels)) return {};
  const groups: ChannelAccess['groups'] = {};
  for (const [id, entry] of Object.entries(channels)) {
    if (!isRecord(entry)) continue;
    const requireMention = typeof entry.requireMention === 'boolean' ? entry.requireMention : undefined;
    const off = entry.enabled === false || entry.allow === false;
    groups[id] = { ...(requireMention !== undefined ? { requireMention } : {}), ...(off ? { enabled: false } : {}) };
  }
  return groups;
}

/** True when the account is configured off (`accounts.<id>.enabled: false`). */
export function accountDisabled(section: Record<string, unknown>, accountId: string): boolean {
  const accounts = isRecord(section.accounts) ? section.accounts : {};
  const account = accounts[accountId];
  return isRecord(account) && account.enabled === false;
}

/** A sender named on a list by its id or its username (with or without the `@`), or `"*"` for anyone. */
function listed(list: readonly string[], sender: ChannelInboundMessage['sender']): boolean {
  if (list.includes('*') || list.includes(sender.id)) return true;
  const username = sender.username?.replace(/^@/, '');
  return !!username && (list.includes(username) || list.includes(`@${username}`));
}

/**
 * The gateway's policies, in order (docs/channels.md#who-may-talk-to-an-agent): bots (the bot's own messages always,
 * other bots unless `allowBots`), then a DM by `dmPolicy`, a group message by `groupPolicy`, its sender by the group's
 * `allowFrom` (else `groupAllowFrom`), and mention gating.
 * `approved` says whether the sender has paired with this channel (asked only under `pairing`).
 */
export async function decideAccess(
  access: ChannelAccess,
  message: ChannelInboundMessage,
  approved: () => Promise<boolean>,
): Promise<AccessDecision> {
  if (message.sender.isSelf) return ignored("the bot's own message");
  if (message.sender.isBot && !access.allowBots) return ignored('sent by a bot (allowBots is false)');
  if (message.peer.kind === 'dm') {
    switch (access.dmPolicy) {
      case 'disabled':
        return ignored('direct messages are disabled (dmPolicy "disabled")');
      case 'open':
        return { kind: 'route' };
      case 'allowlist':
        return listed(access.allowFrom, message.sender) ? { kind: 'route' } : ignored('sender is not on allowFrom (dmPolicy "allowlist")');
      default:
        if (listed(access.allowFrom, message.sender) || (await approved())) return { kind: 'route' };
        return { kind: 'pair' };
    }
  }
  if (access.groupPolicy === 'disabled') return ignored('group messages are disabled (groupPolicy "disabled")');
  // The place's own entry, else a plugin's own listing of it (Discord's guilds) as an entry of its own, else `*`.
  const own = Object.prototype.hasOwnProperty.call(access.groups, message.peer.id) ? access.groups[message.peer.id] : undefined;
  const wildcard = Object.prototype.hasOwnProperty.call(access.groups, '*') ? access.groups['*'] : undefined;
  const groupKey = own || message.listedGroup ? message.peer.id : '*';
  const group: GroupAccess | undefined = own ?? message.listedGroup ?? wildcard;
  if (group?.enabled === false) return ignored(`group ${message.peer.id} is disabled (groups.${message.peer.id}.enabled)`);
  if (access.groupPolicy === 'allowlist') {
    const groupListed = Object.keys(access.groups).length > 0 || message.listedGroup !== undefined;
    if (groupListed && !group) return ignored(`group ${message.peer.id} is not under groups (groupPolicy "allowlist")`);
    if (!groupListed && !access.groupAllowFrom.length)
      return ignored('no group is allowed: set groups or groupAllowFrom (groupPolicy "allowlist")');
  }
  // A group's own allowFrom replaces groupAllowFrom for that group, as in OpenClaw; an empty one lets nobody in.
  if (Array.isArray(group?.allowFrom)) {
    if (!listed(group.allowFrom.map(String), message.sender)) return ignored(`sender is not on groups.${groupKey}.allowFrom`);
  } else if (access.groupAllowFrom.length && !listed(access.groupAllowFrom, message.sender))
    return ignored('sender is not on groupAllowFrom');
  const requireMention = group?.requireMention ?? true;
  if (requireMention && !message.mentionsBot) return ignored('not mentioned (requireMention)');
  return { kind: 'route' };
}

function ignored(reason: string): AccessDecision {
  return { kind: 'ignored', reason };
}
