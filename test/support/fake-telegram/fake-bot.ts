import { ChangeSignal } from '../change-signal';
import { ScriptedFailures } from '../scripted-failures';
import { type BotFilesContext, getFile, sendFile, type StoredFile } from './telegram-bot-files';
import { TelegramChats } from './telegram-chats';
import { parseTelegramHtml } from './telegram-html';
import { badRequest, isTrue, now, optionalInt, str, TgError } from './telegram-params';
import type { BotMessage, RecordedCall, TgChat, TgMessage, TgUpdate, TgUser } from './telegram-types';
import { TelegramUpdateQueue, UPDATE_KINDS } from './telegram-update-queue';
import type { BotUpload } from './telegram-uploads';
import { type FakeWebhook, webhookInfo, webhookOf } from './telegram-webhook-settings';

export { TgError } from './telegram-params';
export type { FakeWebhook } from './telegram-webhook-settings';
export type { StoredFile } from './telegram-bot-files';

const MAX_TEXT = 4096;
const CHAT_ACTIONS = new Set([
  'typing',
  'upload_photo',
  'record_video',
  'upload_video',
  'record_voice',
  'upload_voice',
  'upload_document',
  'choose_sticker',
  'find_location',
  'record_video_note',
  'upload_video_note',
]);

/** A failure a test scripted for a method: the status and description it answers with. */
interface ScriptedFailure {
  retryAfter: number;
  code: number;
  description: string;
}

/**
 * One bot account as Telegram keeps it: its pending updates (dropped once a `getUpdates` offset passes them), the
 * chats it is in, the messages of those chats, the calls it made, and failures a test scripted.
 */
export class FakeBot {
  readonly user: TgUser;
  readonly calls: RecordedCall[] = [];
  private readonly updates = new TelegramUpdateQueue();
  private readonly chats = new TelegramChats();
  private readonly sent: BotMessage[] = [];
  /** Scripted failures by method name, lower-cased (Bot API method names are case-insensitive). */
  private readonly failures = new ScriptedFailures<string, ScriptedFailure>();
  readonly files = new Map<string, StoredFile>();
  /** The files the bot sent (sendDocument, sendPhoto), in order. */
  readonly uploads: BotUpload[] = [];
  /** The webhook `setWebhook` registered (https://core.telegram.org/bots/api#setwebhook), with its last failed delivery. */
  webhook?: FakeWebhook;
  private readonly signal = new ChangeSignal();

  constructor(
    readonly token: string,
    user: Omit<TgUser, 'is_bot'>,
  ) {
    this.user = { ...user, is_bot: true };
  }

  // ── what the test does ──

  /** Puts a chat the bot is in; messages to unknown chats get "chat not found", as for a bot never added there. */
  addChat(chat: TgChat): TgChat {
    return this.chats.add(chat);
  }

  /** A person's (or another bot's) message reaching this bot: stored in its chat and queued as an update. */
  receive(
    message: Omit<TgMessage, 'message_id' | 'date'> & { date?: number },
    kind: 'message' | 'edited_message' | 'channel_post' = 'message',
  ): TgMessage {
    this.addChat(this.chats.get(message.chat.id) ?? message.chat);
    const stored: TgMessage = { message_id: this.chats.takeMessageId(message.chat.id), date: now(), ...message };
    if (stored.message_thread_id !== undefined) this.chats.topicsOf(message.chat.id).add(stored.message_thread_id);
    this.chats.messagesOf(message.chat.id).set(stored.message_id, stored);
    this.updates.push({ [kind]: stored });
    this.changed();
    return stored;
  }

  /** The next `count` calls of `method` fail as Telegram's flood control answers them (or with `code`/`description`). */
  failNext(method: string, count: number, retryAfter = 1, code = 429, description?: string): void {
    const key = method.toLowerCase();
    this.failures.add(
      count,
      {
        retryAfter,
        code,
        description: description ?? (code === 429 ? `Too Many Requests: retry after ${retryAfter}` : 'Internal Server Error'),
      },
      (called) => called === key,
      key,
    );
  }

  /** The messages the bot sent (optionally in one chat), in the order it sent them, as they read now. */
  botMessages(chatId?: number): BotMessage[] {
    return this.sent.filter((m) => chatId === undefined || m.chatId === chatId);
  }

  /** Updates Telegram still holds for the bot (not confirmed by a later offset). */
  pendingUpdates(): TgUpdate[] {
    return this.updates.all();
  }

  /** Every request the bot made is kept, in order, for the test to read. */
  record(call: RecordedCall): void {
    this.calls.push(call);
    this.changed();
  }

  onChange(listener: () => void): () => void {
    return this.signal.onChange(listener);
  }

  // ── the Bot API methods ──

  call(method: string, params: Record<string, unknown>): unknown {
    const failure = this.failures.take(method.toLowerCase());
    if (failure) {
      throw new TgError(failure.code, failure.description, failure.code === 429 ? { retry_after: failure.retryAfter } : undefined);
    }
    switch (method.toLowerCase()) {
      case 'getme':
        return { ...this.user, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false };
      case 'sendmessage':
        return this.sendMessage(params);
      case 'editmessagetext':
        return this.editMessageText(params);
      case 'sendchataction':
        return this.sendChatAction(params);
      case 'deletewebhook':
        if (isTrue(params.drop_pending_updates)) this.updates.drop();
        this.webhook = undefined;
        return true;
      case 'setwebhook':
        return this.setWebhook(params);
      case 'getwebhookinfo':
        return webhookInfo(this.webhook, this.webhook ? this.webhookQueue().length : this.updates.size);
      case 'getfile':
        return getFile(this.fileContext(), params);
      case 'senddocument':
        return this.sendFile(params, 'document');
      case 'sendphoto':
        return this.sendFile(params, 'photo');
      default:
        throw new TgError(404, 'Not Found');
    }
  }

  /** `getUpdates`: refused while a webhook is set (Telegram delivers by one way at a time). */
  getUpdates(params: Record<string, unknown>): Promise<TgUpdate[]> {
    if (this.webhook) {
      return Promise.reject(
        new TgError(409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"),
      );
    }
    return this.updates.getUpdates(params);
  }

  /** The updates the webhook receives now, oldest first (those of the kinds it asked for). */
  webhookQueue(): TgUpdate[] {
    return this.updates.ofKinds(this.webhook?.allowedUpdates?.length ? this.webhook.allowedUpdates : UPDATE_KINDS);
  }

  /** A webhook delivery was answered with something other than a 2xx: kept, as getWebhookInfo shows it. */
  webhookFailed(message: string): void {
    if (this.webhook) this.webhook.lastError = { date: now(), message };
    this.changed();
  }

  /** Updates confirmed by a webhook delivery leave the queue. */
  confirm(updateId: number): void {
    this.updates.confirm(updateId);
    this.changed();
  }

  private sendMessage(params: Record<string, unknown>): TgMessage {
    const chat = this.chats.chatOf(params.chat_id);
    const { text, parseMode } = textOf(params);
    const threadId = this.chats.threadOf(chat.id, params);
    const replyTo = this.chats.replyTarget(chat.id, params);
    const message: TgMessage = {
      message_id: this.chats.takeMessageId(chat.id),
      from: this.user,
      chat,
      date: now(),
      text,
      ...(threadId !== undefined ? { message_thread_id: threadId, is_topic_message: true as const } : {}),
      ...(replyTo ? { reply_to_message: replyTo } : {}),
    };
    this.chats.messagesOf(chat.id).set(message.message_id, message);
    this.sent.push({
      chatId: chat.id,
      messageId: message.message_id,
      ...(threadId !== undefined ? { threadId } : {}),
      ...(replyTo ? { replyTo: replyTo.message_id } : {}),
      ...(parseMode ? { parseMode } : {}),
      text,
      versions: [str(params.text)],
    });
    this.changed();
    return message;
  }

  private editMessageText(params: Record<string, unknown>): TgMessage {
    if (params.inline_message_id !== undefined) throw badRequest('inline messages are not supported by this fake');
    const chat = this.chats.chatOf(params.chat_id);
    const messageId = optionalInt(params.message_id, 'message_id');
    if (messageId === undefined) throw badRequest('message identifier is not specified');
    const message = this.chats.messagesOf(chat.id).get(messageId);
    if (!message) throw badRequest('message to edit not found');
    if (message.from?.id !== this.user.id) throw badRequest("message can't be edited");
    const { text } = textOf(params);
    if (text === message.text) {
      throw badRequest(
        'message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
      );
    }
    message.text = text;
    message.edit_date = now();
    const record = this.sent.find((m) => m.chatId === chat.id && m.messageId === messageId);
    if (record) {
      record.text = text;
      record.versions.push(str(params.text));
    }
    this.changed();
    return message;
  }

  private sendChatAction(params: Record<string, unknown>): true {
    const chat = this.chats.chatOf(params.chat_id);
    if (!CHAT_ACTIONS.has(str(params.action))) throw badRequest('wrong parameter action in request');
    this.chats.threadOf(chat.id, params);
    return true;
  }

  /** `setWebhook`: an empty `url` removes the webhook; a waiting long poll ends, as only one way of delivery holds. */
  private setWebhook(params: Record<string, unknown>): true {
    if (isTrue(params.drop_pending_updates)) this.updates.drop();
    this.webhook = webhookOf(params);
    if (!this.webhook) return true;
    this.updates.endPoll('Conflict: terminated by setWebhook request');
    this.changed();
    return true;
  }

  private sendFile(params: Record<string, unknown>, field: 'document' | 'photo'): TgMessage {
    const message = sendFile(this.fileContext(), params, field);
    this.changed();
    return message;
  }

  private fileContext(): BotFilesContext {
    return { user: this.user, chats: this.chats, files: this.files, uploads: this.uploads };
  }

  private changed(): void {
    this.signal.changed();
  }
}

/** The text of sendMessage / editMessageText as Telegram shows it: `parse_mode` HTML parsed, and its limits checked. */
function textOf(params: Record<string, unknown>): { text: string; parseMode?: string } {
  const raw = str(params.text);
  const parseMode = params.parse_mode === undefined ? undefined : str(params.parse_mode);
  let text = raw;
  if (parseMode === 'HTML') {
    const parsed = parseTelegramHtml(raw);
    if ('error' in parsed) throw new TgError(400, parsed.error);
    text = parsed.text;
  } else if (parseMode !== undefined && parseMode !== 'MarkdownV2' && parseMode !== 'Markdown') {
    throw badRequest('unsupported parse_mode');
  }
  if (!text.trim()) throw badRequest('message text is empty');
  if (text.length > MAX_TEXT) throw badRequest('message is too long');
  return { text, ...(parseMode ? { parseMode } : {}) };
}
