import type { Message } from 'discord.js';
import type { ChannelInboundMessage } from '../../plugin-sdk';
import { judgeGuildMessage, type GuildRules } from './discord-config';

/** What the channel makes of a Discord message: hand it over, or drop it here (and why, for the debug log). */
export type InboundVerdict = { kind: 'inbound'; message: ChannelInboundMessage } | { kind: 'dropped'; reason: string };

/**
 * A Discord message as the gateway's inbound message. A DM is a peer of kind `dm` whose id is the sender's user id
 * (what allowlists, pairing and peer bindings name; the reply goes to the DM channel the message came from). A guild
 * text channel is a peer of kind `channel` with its `guildId`; a thread is the thread inside its parent channel
 * (`peer` the parent, `threadId` the thread), so a binding or a `guilds` rule on the channel covers its threads and
 * each thread keeps its own session. The bot is addressed in a DM, by a user mention of it, or by a reply to one of
 * its messages. The bot's own messages are dropped; other bots' are marked `isBot` (the gateway drops them unless
 * `allowBots`). A guild message the `guilds` rules refuse is dropped; one they list carries `listedGroup`.
 */
export function inboundOf(message: Message, botId: string, accountId: string, guilds: GuildRules | undefined): InboundVerdict {
  if (message.author.id === botId) return { kind: 'dropped', reason: "the bot's own message" };
  if (message.system) return { kind: 'dropped', reason: 'a system message' };
  const author = message.author;
  const sender = {
    id: author.id,
    ...(author.globalName ? { name: author.globalName } : {}),
    username: author.username,
    ...(author.bot ? { isBot: true } : {}),
  };
  const common = {
    accountId,
    sender,
    messageId: message.id,
    ...(message.reference?.messageId ? { replyToId: message.reference.messageId } : {}),
    text: message.content,
  };
  if (!message.inGuild()) {
    return { kind: 'inbound', message: { ...common, peer: { kind: 'dm', id: author.id }, mentionsBot: true } };
  }
  const channel = message.channel;
  const thread = channel.isThread() ? channel : undefined;
  const parentId = thread?.parentId ?? undefined;
  const verdict = judgeGuildMessage(guilds, {
    guildId: message.guildId,
    channelId: channel.id,
    ...('name' in channel && channel.name ? { channelName: channel.name } : {}),
    ...(parentId ? { parentId } : {}),
    ...(thread?.parent?.name ? { parentName: thread.parent.name } : {}),
    senderId: author.id,
    senderUsername: author.username,
  });
  if (verdict.kind === 'refused') return { kind: 'dropped', reason: verdict.reason };
  return {
    kind: 'inbound',
    message: {
      ...common,
      peer: { kind: 'channel', id: parentId ?? channel.id },
      guildId: message.guildId,
      ...(thread ? { threadId: thread.id } : {}),
      mentionsBot: mentions(message, botId),
      ...(verdict.kind === 'listed' ? { listedGroup: { requireMention: verdict.requireMention } } : {}),
    },
  };
}

function mentions(message: Message, botId: string): boolean {
  if (message.mentions.users.has(botId)) return true;
  return message.mentions.repliedUser?.id === botId;
}
