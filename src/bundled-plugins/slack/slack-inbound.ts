import type { ChannelInboundMessage, ChannelPeerKind } from '../../plugin-sdk';
import type { SlackFileObject } from './slack-files';

/** The bot as `auth.test` names it: its user, its bot id, its workspace. */
export interface SlackIdentity {
  userId: string;
  botId: string;
  teamId: string;
}

/** The fields of a `message` / `app_mention` event the channel reads (https://api.slack.com/events/message). */
export interface SlackEvent {
  type: string;
  subtype?: string;
  channel?: string;
  channel_type?: string;
  user?: string;
  bot_id?: string;
  username?: string;
  text?: string;
  ts?: string;
  thread_ts?: string;
  team?: string;
  /** The files a `file_share` message shares. */
  files?: SlackFileObject[];
}

/** Where a reply to a message goes: its conversation, and the thread (a channel's reply always goes in one). */
export interface ReplyPlace {
  channel: string;
  threadTs?: string;
}

/** Message subtypes that are something someone said (edits, deletions, joins, … are not answered). */
const SAID = new Set([undefined, 'bot_message', 'thread_broadcast', 'file_share', 'me_message']);

/** The event is a message the channel may answer: a `message` someone said, or an `app_mention`. */
export function isSaid(event: SlackEvent): event is SlackEvent & { channel: string; ts: string } {
  if (event.type !== 'message' && event.type !== 'app_mention') return false;
  return SAID.has(event.subtype) && typeof event.channel === 'string' && typeof event.ts === 'string';
}

/** The message an event is about, the same for its `message` and its `app_mention` event. */
export function messageKeyOf(event: { channel: string; ts: string }): string {
  return `${event.channel}:${event.ts}`;
}

/** The bot's own message (Slack sends a bot's posts back to it as events): never handed to the gateway. */
export function isOwnMessage(event: SlackEvent, me: SlackIdentity): boolean {
  return event.user === me.userId || (event.bot_id !== undefined && event.bot_id === me.botId);
}

/** A DM (`im`, `D…`), a group DM (`mpim`), or a channel (public `C…`, private `G…`); `app_mention` has no `channel_type`. */
function conversationKind(event: SlackEvent & { channel: string }): 'im' | 'mpim' | 'channel' {
  const type = event.channel_type ?? (event.channel.startsWith('D') ? 'im' : 'channel');
  return type === 'im' ? 'im' : type === 'mpim' ? 'mpim' : 'channel';
}

export function replyPlaceOf(event: SlackEvent & { channel: string; ts: string }): ReplyPlace {
  const threadTs = event.thread_ts ?? (conversationKind(event) === 'im' ? undefined : event.ts);
  return { channel: event.channel, ...(threadTs ? { threadTs } : {}) };
}

/**
 * A Slack message as the gateway's inbound message. A DM is a peer of kind `dm` whose id is the sender's user id
 * (the person, as `allowFrom` and pairing name them); a group DM is a `group`, a channel a `channel` (its id); a
 * message inside a thread carries the thread's `thread_ts` as `threadId`. The bot is mentioned by `<@BOTUSER>`
 * in the text (removed from what the agent reads) or by the event being an `app_mention`; a DM is always
 * addressed to it. Slack's escapes (`&amp;`, `&lt;`, `&gt;`) are undone.
 */
export function inboundOf(
  event: SlackEvent & { channel: string; ts: string },
  me: SlackIdentity,
  accountId: string,
  teamId?: string,
): ChannelInboundMessage {
  const kind = conversationKind(event);
  const peerKind: ChannelPeerKind = kind === 'im' ? 'dm' : kind === 'mpim' ? 'group' : 'channel';
  const senderId = event.user ?? event.bot_id ?? 'unknown';
  const raw = event.text ?? '';
  const mention = new RegExp(`<@${me.userId}(\\|[^>]*)?>`, 'g');
  const mentioned = raw.search(mention) >= 0;
  const text = unescape(
    raw
      .replace(mention, ' ')
      .replace(/[ \t]{2,}/g, ' ')
      .trim(),
  );
  const team = event.team ?? teamId ?? me.teamId;
  return {
    accountId,
    peer: { kind: peerKind, id: peerKind === 'dm' ? senderId : event.channel },
    ...(team ? { teamId: team } : {}),
    sender: {
      id: senderId,
      ...(event.username ? { username: event.username } : {}),
      ...(event.bot_id || event.subtype === 'bot_message' ? { isBot: true } : {}),
      ...(isOwnMessage(event, me) ? { isSelf: true } : {}),
    },
    ...(event.thread_ts && event.thread_ts !== event.ts ? { threadId: event.thread_ts } : {}),
    messageId: event.ts,
    text,
    mentionsBot: peerKind === 'dm' || event.type === 'app_mention' || mentioned,
  };
}

function unescape(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
