import { parseTelegramHtml } from './telegram-html';
import { type BotUpload, isUploadedFile, MAX_DOWNLOAD_BYTES } from './telegram-uploads';
import type { BotMessage, RecordedCall, TgChat, TgMessage, TgUpdate, TgUser } from './telegram-types';

/** A Bot API error as the server words it: the HTTP status is `error_code`. */
export class TgError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly parameters?: { retry_after?: number; migrate_to_chat_id?: number },
  ) {
    super(description);
  }
}

const badRequest = (what: string): TgError => new TgError(400, `Bad Request: ${what}`);
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
const UPDATE_KINDS = ['message', 'edited_message', 'channel_post'] as const;

interface Poll {
  offset: number;
  limit: number;
  resolve(updates: TgUpdate[]): void;
  reject(error: TgError): void;
  timer: NodeJS.Timeout;
}

export interface FakeWebhook {
  url: string;
  secretToken?: string;
  maxConnections: number;
  allowedUpdates?: string[];
  lastError?: { date: number; message: string };
}

export interface StoredFile {
  filePath: string;
  data: Buffer;
  name?: string;
  mimeType?: string;
}

/**
 * One bot account as Telegram keeps it: its pending updates (dropped once a `getUpdates` offset passes them), the
 * chats it is in, the messages of those chats, the calls it made, and failures a test scripted.
 */
export class FakeBot {
  readonly user: TgUser;
  readonly calls: RecordedCall[] = [];
  /** Updates not yet confirmed by an offset, oldest first. */
  private pending: TgUpdate[] = [];
  private nextUpdateId = 100_000 + Math.floor(Math.random() * 1000);
  private readonly chats = new Map<number, TgChat>();
  private readonly messages = new Map<number, Map<number, TgMessage>>();
  private readonly nextMessageId = new Map<number, number>();
  private readonly topics = new Map<number, Set<number>>();
  private readonly sent: BotMessage[] = [];
  private readonly failures = new Map<string, { count: number; retryAfter: number; code: number; description: string }>();
  readonly files = new Map<string, StoredFile>();
  /** The files the bot sent (sendDocument, sendPhoto), in order. */
  readonly uploads: BotUpload[] = [];
  private poll?: Poll;
  private allowedUpdates: string[] = [];
  /** The webhook `setWebhook` registered (https://core.telegram.org/bots/api#setwebhook), with its last failed delivery. */
  webhook?: FakeWebhook;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly token: string,
    user: Omit<TgUser, 'is_bot'>,
  ) {
    this.user = { ...user, is_bot: true };
  }

  // ── what the test does ──

  /** Puts a chat the bot is in; messages to unknown chats get "chat not found", as for a bot never added there. */
  addChat(chat: TgChat): TgChat {
    this.chats.set(chat.id, chat);
    return chat;
  }

  /** A person's (or another bot's) message reaching this bot: stored in its chat and queued as an update. */
  receive(
    message: Omit<TgMessage, 'message_id' | 'date'> & { date?: number },
    kind: 'message' | 'edited_message' | 'channel_post' = 'message',
  ): TgMessage {
    this.addChat(this.chats.get(message.chat.id) ?? message.chat);
    const stored: TgMessage = { message_id: this.takeMessageId(message.chat.id), date: now(), ...message };
    if (stored.message_thread_id !== undefined) this.topicsOf(message.chat.id).add(stored.message_thread_id);
    this.messagesOf(message.chat.id).set(stored.message_id, stored);
    this.queue({ [kind]: stored });
    return stored;
  }

  /** The next `count` calls of `method` fail as Telegram's flood control answers them (or with `code`/`description`). */
  failNext(method: string, count: number, retryAfter = 1, code = 429, description?: string): void {
    this.failures.set(method.toLowerCase(), {
      count,
      retryAfter,
      code,
      description: description ?? (code === 429 ? `Too Many Requests: retry after ${retryAfter}` : 'Internal Server Error'),
    });
  }

  /** The messages the bot sent (optionally in one chat), in the order it sent them, as they read now. */
  botMessages(chatId?: number): BotMessage[] {
    return this.sent.filter((m) => chatId === undefined || m.chatId === chatId);
  }

  /** Updates Telegram still holds for the bot (not confirmed by a later offset). */
  pendingUpdates(): TgUpdate[] {
    return [...this.pending];
  }

  /** Every request the bot made is kept, in order, for the test to read. */
  record(call: RecordedCall): void {
    this.calls.push(call);
    this.changed();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ── the Bot API methods ──

  call(method: string, params: Record<string, unknown>): unknown {
    const failure = this.failures.get(method.toLowerCase());
    if (failure && failure.count > 0) {
      failure.count--;
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
        if (params.drop_pending_updates === true || params.drop_pending_updates === 'true') this.pending = [];
        this.webhook = undefined;
        return true;
      case 'setwebhook':
        return this.setWebhook(params);
      case 'getwebhookinfo':
        return this.webhookInfo();
      case 'getfile':
        return this.getFile(params);
      case 'senddocument':
        return this.sendFile(params, 'document');
      case 'sendphoto':
        return this.sendFile(params, 'photo');
      default:
        throw new TgError(404, 'Not Found');
    }
  }

  /** `getUpdates`: confirms what lies below `offset`, then answers at once or when an update comes or `timeout` ends. */
  getUpdates(params: Record<string, unknown>): Promise<TgUpdate[]> {
    if (this.webhook) {
      return Promise.reject(
        new TgError(409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"),
      );
    }
    const offset = optionalInt(params.offset, 'offset') ?? 0;
    const limit = Math.min(Math.max(optionalInt(params.limit, 'limit') ?? 100, 1), 100);
    const timeout = Math.max(optionalInt(params.timeout, 'timeout') ?? 0, 0);
    if (params.allowed_updates !== undefined) this.allowedUpdates = jsonParam<string[]>(params.allowed_updates, 'allowed_updates');
    if (offset > 0) this.pending = this.pending.filter((u) => u.update_id >= offset);
    else if (offset < 0) this.pending = this.pending.slice(offset);
    // A second poller ends the first one, as Telegram does for two instances of one bot.
    if (this.poll) {
      clearTimeout(this.poll.timer);
      this.poll.reject(
        new TgError(409, 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running'),
      );
      this.poll = undefined;
    }
    const ready = this.visible(offset, limit);
    if (ready.length || timeout === 0) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.poll = undefined;
        resolve([]);
      }, timeout * 1000);
      this.poll = { offset, limit, resolve, reject, timer };
    });
  }

  /** The updates the webhook receives now, oldest first (those of the kinds it asked for). */
  webhookQueue(): TgUpdate[] {
    const kinds = this.webhook?.allowedUpdates?.length ? this.webhook.allowedUpdates : UPDATE_KINDS;
    return this.pending.filter((u) => kinds.some((k) => k in u));
  }

  /** A webhook delivery was answered with something other than a 2xx: kept, as getWebhookInfo shows it. */
  webhookFailed(message: string): void {
    if (this.webhook) this.webhook.lastError = { date: now(), message };
    this.changed();
  }

  /** Updates confirmed by a webhook delivery leave the queue. */
  confirm(updateId: number): void {
    this.pending = this.pending.filter((u) => u.update_id !== updateId);
    this.changed();
  }

  private visible(offset: number, limit: number): TgUpdate[] {
    const kinds = this.allowedUpdates.length ? this.allowedUpdates : UPDATE_KINDS;
    return this.pending.filter((u) => u.update_id >= offset && kinds.some((k) => k in u)).slice(0, limit);
  }

  private queue(body: Omit<TgUpdate, 'update_id'>): void {
    const update: TgUpdate = { update_id: this.nextUpdateId++, ...body };
    this.pending.push(update);
    if (this.poll) {
      const ready = this.visible(this.poll.offset, this.poll.limit);
      if (ready.length) {
        const { resolve, timer } = this.poll;
        clearTimeout(timer);
        this.poll = undefined;
        resolve(ready);
      }
    }
    this.changed();
  }

  private sendMessage(params: Record<string, unknown>): TgMessage {
    const chat = this.chatOf(params.chat_id);
    const { text, parseMode } = this.textOf(params);
    const threadId = optionalInt(params.message_thread_id, 'message_thread_id');
    if (threadId !== undefined && !this.topicsOf(chat.id).has(threadId)) throw badRequest('message thread not found');
    const replyTo = this.replyTarget(chat.id, params);
    const message: TgMessage = {
      message_id: this.takeMessageId(chat.id),
      from: this.user,
      chat,
      date: now(),
      text,
      ...(threadId !== undefined ? { message_thread_id: threadId, is_topic_message: true as const } : {}),
      ...(replyTo ? { reply_to_message: replyTo } : {}),
    };
    this.messagesOf(chat.id).set(message.message_id, message);
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
    const chat = this.chatOf(params.chat_id);
    const messageId = optionalInt(params.message_id, 'message_id');
    if (messageId === undefined) throw badRequest('message identifier is not specified');
    const message = this.messagesOf(chat.id).get(messageId);
    if (!message) throw badRequest('message to edit not found');
    if (message.from?.id !== this.user.id) throw badRequest("message can't be edited");
    const { text } = this.textOf(params);
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
    const chat = this.chatOf(params.chat_id);
    if (!CHAT_ACTIONS.has(str(params.action))) throw badRequest('wrong parameter action in request');
    const threadId = optionalInt(params.message_thread_id, 'message_thread_id');
    if (threadId !== undefined && !this.topicsOf(chat.id).has(threadId)) throw badRequest('message thread not found');
    return true;
  }

  /** `setWebhook` as the Bot API documents it: an empty `url` removes the webhook; the other parameters are checked. */
  private setWebhook(params: Record<string, unknown>): true {
    const url = typeof params.url === 'string' ? params.url : '';
    if (params.drop_pending_updates === true || params.drop_pending_updates === 'true') this.pending = [];
    if (!url) {
      this.webhook = undefined;
      return true;
    }
    if (!/^https?:\/\//.test(url)) throw badRequest('bad webhook: An HTTPS URL must be provided for webhook');
    const secret = params.secret_token;
    if (secret !== undefined && (typeof secret !== 'string' || !/^[A-Za-z0-9_-]{1,256}$/.test(secret))) {
      throw badRequest('secret token contains unallowed characters');
    }
    const maxConnections = optionalInt(params.max_connections, 'max_connections') ?? 40;
    if (maxConnections < 1 || maxConnections > 100) throw badRequest('bad webhook: max_connections must be between 1 and 100');
    const allowed = params.allowed_updates === undefined ? undefined : jsonParam<string[]>(params.allowed_updates, 'allowed_updates');
    this.webhook = {
      url,
      maxConnections,
      ...(typeof secret === 'string' ? { secretToken: secret } : {}),
      ...(allowed ? { allowedUpdates: allowed } : {}),
    };
    if (this.poll) {
      clearTimeout(this.poll.timer);
      this.poll.reject(new TgError(409, 'Conflict: terminated by setWebhook request'));
      this.poll = undefined;
    }
    this.changed();
    return true;
  }

  /** `getWebhookInfo`'s WebhookInfo: an empty `url` while the bot uses getUpdates. */
  private webhookInfo(): Record<string, unknown> {
    const hook = this.webhook;
    if (!hook) return { url: '', has_custom_certificate: false, pending_update_count: this.pending.length };
    return {
      url: hook.url,
      has_custom_certificate: false,
      pending_update_count: this.webhookQueue().length,
      max_connections: hook.maxConnections,
      ...(hook.allowedUpdates ? { allowed_updates: hook.allowedUpdates } : {}),
      ...(hook.lastError ? { last_error_date: hook.lastError.date, last_error_message: hook.lastError.message } : {}),
    };
  }

  private getFile(params: Record<string, unknown>): unknown {
    const id = str(params.file_id);
    const file = this.files.get(id);
    if (!file) throw badRequest('invalid file_id');
    if (file.data.length > MAX_DOWNLOAD_BYTES) throw badRequest('file is too big');
    return { file_id: id, file_unique_id: `u${id}`, file_size: file.data.length, file_path: file.filePath };
  }

  /** sendDocument / sendPhoto with the file uploaded in the request (a file_id the bot knows is sent again). */
  private sendFile(params: Record<string, unknown>, field: 'document' | 'photo'): TgMessage {
    const chat = this.chatOf(params.chat_id);
    const given = params[field];
    const known = typeof given === 'string' ? this.files.get(given) : undefined;
    const file = isUploadedFile(given) ? given : known ? { filename: known.name ?? field, data: known.data } : undefined;
    if (!file)
      throw badRequest(typeof given === 'string' ? 'wrong file identifier/HTTP URL specified' : `there is no ${field} in the request`);
    const threadId = optionalInt(params.message_thread_id, 'message_thread_id');
    if (threadId !== undefined && !this.topicsOf(chat.id).has(threadId)) throw badRequest('message thread not found');
    const fileId = `${field}${this.files.size + 1}`;
    this.files.set(fileId, { filePath: `${field}s/file_${this.files.size}`, data: file.data, name: file.filename });
    const ref = { file_id: fileId, file_unique_id: `u${fileId}`, file_size: file.data.length };
    const caption = params.caption === undefined ? undefined : str(params.caption);
    const message: TgMessage = {
      message_id: this.takeMessageId(chat.id),
      from: this.user,
      chat,
      date: now(),
      ...(caption ? { caption } : {}),
      ...(threadId !== undefined ? { message_thread_id: threadId, is_topic_message: true as const } : {}),
      ...(field === 'document' ? { document: { ...ref, file_name: file.filename } } : { photo: [{ ...ref, width: 1, height: 1 }] }),
    };
    this.messagesOf(chat.id).set(message.message_id, message);
    const method = field === 'document' ? 'sendDocument' : 'sendPhoto';
    this.uploads.push({
      chatId: chat.id,
      messageId: message.message_id,
      method,
      filename: file.filename,
      data: file.data,
      ...(threadId !== undefined ? { threadId } : {}),
      ...(caption ? { caption } : {}),
    });
    this.changed();
    return message;
  }

  // ── helpers ──

  private textOf(params: Record<string, unknown>): { text: string; parseMode?: string } {
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

  private replyTarget(chatId: number, params: Record<string, unknown>): TgMessage | undefined {
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
      allowWithout = params.allow_sending_without_reply === true || params.allow_sending_without_reply === 'true';
    }
    if (messageId === undefined) return undefined;
    const target = this.messagesOf(chatId).get(messageId);
    if (!target && !allowWithout) throw badRequest('message to be replied not found');
    return target;
  }

  private chatOf(raw: unknown): TgChat {
    if (raw === undefined || raw === '') throw badRequest('chat_id is empty');
    const chat =
      typeof raw === 'string' && raw.startsWith('@')
        ? [...this.chats.values()].find((c) => c.username === raw.slice(1))
        : this.chats.get(Number(raw));
    if (!chat) throw badRequest('chat not found');
    return chat;
  }

  private takeMessageId(chatId: number): number {
    const id = this.nextMessageId.get(chatId) ?? 1;
    this.nextMessageId.set(chatId, id + 1);
    return id;
  }

  private messagesOf(chatId: number): Map<number, TgMessage> {
    let map = this.messages.get(chatId);
    if (!map) this.messages.set(chatId, (map = new Map()));
    return map;
  }

  private topicsOf(chatId: number): Set<number> {
    let set = this.topics.get(chatId);
    if (!set) this.topics.set(chatId, (set = new Set()));
    return set;
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

/** A scalar parameter as text (form bodies make every value a string; an object is not a scalar). */
function str(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}

function optionalInt(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n)) throw badRequest(`field "${name}" must be an Integer`);
  return n;
}

/** Form bodies carry objects and arrays as JSON-serialized strings; JSON bodies carry them as they are. */
function jsonParam<T>(value: unknown, name: string): T {
  if (typeof value !== 'string') return value as T;
  try {
    return JSON.parse(value) as T;
  } catch {
    throw badRequest(`can't parse ${name} JSON object`);
  }
}
