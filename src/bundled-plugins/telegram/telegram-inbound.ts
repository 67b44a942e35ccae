import type { Message, Update, UserFromGetMe } from 'grammy/types';
import type { ChannelInboundMessage } from '../../plugin-sdk';

/** The chat of a message and where a reply to it goes. */
export interface ReplyTarget {
  chatId: number;
  /** The forum topic it was said in. */
  threadId?: number;
  /** The message the reply answers. */
  replyTo: number;
}

/** The message an update carries, when it is one the channel answers (new messages and channel posts). */
export function messageOf(update: Update): Message | undefined {
  return update.message ?? update.channel_post;
}

export function replyTargetOf(message: Message): ReplyTarget {
  return {
    chatId: message.chat.id,
    ...(message.is_topic_message && message.message_thread_id !== undefined ? { threadId: message.message_thread_id } : {}),
    replyTo: message.message_id,
  };
}

/**
 * A Telegram message as the gateway's inbound message: DMs are peers of kind `dm` (the chat id is the sender's),
 * groups and supergroups `group` (a forum topic is the `threadId` inside it), channels `channel`. The bot is
 * mentioned by an `@username` mention entity, a text mention of it, a `/command@username`, or a reply to one of
 * its messages; a DM is always addressed to it.
 */
export function inboundOf(message: Message, me: UserFromGetMe, accountId: string): ChannelInboundMessage {
  const chat = message.chat;
  const kind = chat.type === 'private' ? 'dm' : chat.type === 'channel' ? 'channel' : 'group';
  const from = message.from ?? message.sender_chat;
  const senderName = message.from
    ? [message.from.first_name, message.from.last_name].filter(Boolean).join(' ')
    : message.sender_chat?.title;
  const username =
    message.from?.username ?? (message.sender_chat && 'username' in message.sender_chat ? message.sender_chat.username : undefined);
  const text = message.text ?? message.caption ?? '';
  const target = replyTargetOf(message);
  return {
    accountId,
    peer: { kind, id: String(chat.id) },
    sender: {
      id: String(from?.id ?? chat.id),
      ...(senderName ? { name: senderName } : {}),
      ...(username ? { username } : {}),
      ...(message.from?.is_bot ? { isBot: true } : {}),
    },
    ...(target.threadId !== undefined ? { threadId: String(target.threadId) } : {}),
    messageId: String(message.message_id),
    ...(message.reply_to_message ? { replyToId: String(message.reply_to_message.message_id) } : {}),
    text,
    mentionsBot: kind === 'dm' || mentions(message, me),
  };
}

/** The bot's own messages (a channel post it made, an echo): never handed to the gateway. */
export function isOwnMessage(message: Message, me: UserFromGetMe): boolean {
  return message.from?.id === me.id;
}

function mentions(message: Message, me: UserFromGetMe): boolean {
  if (message.reply_to_message?.from?.id === me.id) return true;
  const text = message.text ?? message.caption ?? '';
  const handle = `@${me.username}`.toLowerCase();
  for (const entity of message.entities ?? message.caption_entities ?? []) {
    const said = text.slice(entity.offset, entity.offset + entity.length).toLowerCase();
    if (entity.type === 'mention' && said === handle) return true;
    if (entity.type === 'text_mention' && entity.user.id === me.id) return true;
    if (entity.type === 'bot_command' && said.endsWith(handle)) return true;
  }
  return false;
}
