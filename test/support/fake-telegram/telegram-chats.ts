import { badRequest, isTrue, jsonParam, optionalInt } from './telegram-params';
import type { TgChat, TgMessage } from './telegram-types';

/** The chats a bot is in, with their messages (ids counted per chat, as Telegram does) and forum topics. */
export class TelegramChats {
  private readonly chats = new Map<number, TgChat>();
  private readonly messages = new Map<number, Map<number, TgMessage>>();
  private readonly nextMessageId = new Map<number, number>();
  private readonly topics = new Map<number, Set<number>>();

  add(chat: TgChat): TgChat {
    this.chats.set(chat.id, chat);
    return chat;
  }

  get(chatId: number): TgChat | undefined {
    return this.chats.get(chatId);
  }

  /** The chat a `chat_id` parameter names (a number, or `@username`); "chat not found" for one the bot is not in. */
  chatOf(raw: unknown): TgChat {
    if (raw === undefined || raw === '') throw badRequest('chat_id is empty');
    const chat =
      typeof raw === 'string' && raw.startsWith('@')
        ? [...this.chats.values()].find((c) => c.username === raw.slice(1))
        : this.chats.get(Number(raw));
    if (!chat) throw badRequest('chat not found');
    return chat;
  }

  takeMessageId(chatId: number): number {
    const id = this.nextMessageId.get(chatId) ?? 1;
    this.nextMessageId.set(chatId, id + 1);
    return id;
  }

  messagesOf(chatId: number): Map<number, TgMessage> {
    let map = this.messages.get(chatId);
    if (!map) this.messages.set(chatId, (map = new Map()));
    return map;
  }

  topicsOf(chatId: number): Set<number> {
    let set = this.topics.get(chatId);
    if (!set) this.topics.set(chatId, (set = new Set()));
    return set;
  }

  /** The `message_thread_id` parameter, which must name a topic of the chat. */
  threadOf(chatId: number, params: Record<string, unknown>): number | undefined {
    const threadId = optionalInt(params.message_thread_id, 'message_thread_id');
    if (threadId !== undefined && !this.topicsOf(chatId).has(threadId)) throw badRequest('message thread not found');
    return threadId;
  }

  /** The message `reply_parameters` (or the older `reply_to_message_id`) answers, if the chat has it. */
  replyTarget(chatId: number, params: Record<string, unknown>): TgMessage | undefined {
    let messageId: number | undefined;
    let allowWithout = false;
    if (params.reply_parameters !== undefined) {
      const reply = jsonParam<{ message_id?: number; chat_id?: unknown; allow_sending_without_reply?: boolean }>(
        params.reply_parameters,
        'reply_parameters',
      );
      if (typeof reply.message_id !== 'number') throw badRequest('field "message_id" must be a Number');
      messageId = reply.message_id;
      allowWithout = reply.allow_sending_without_reply === true;
    } else if (params.reply_to_message_id !== undefined) {
      messageId = optionalInt(params.reply_to_message_id, 'reply_to_message_id');
      allowWithout = isTrue(params.allow_sending_without_reply);
    }
    if (messageId === undefined) return undefined;
    const target = this.messagesOf(chatId).get(messageId);
    if (!target && !allowWithout) throw badRequest('message to be replied not found');
    return target;
  }
}
