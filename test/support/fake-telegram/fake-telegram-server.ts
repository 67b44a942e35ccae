import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { BackgroundWork } from '../background-work';
import { waitForChange } from '../change-signal';
import { closeServer, jsonOrFormParams, listenLocal, localOrigin, mediaTypeOf, readBody } from '../fake-http';
import { parseMultipart } from '../multipart-form';
import { FakeBot, TgError } from './fake-bot';
import { formParams } from './telegram-uploads';
import type { BotMessage, RecordedCall, TgChat, TgMessage, TgUpdate, TgUser } from './telegram-types';

let nextChatId = 5_000_000;

/**
 * A fake Telegram Bot API server on a real port, speaking the documented HTTP protocol
 * (https://core.telegram.org/bots/api#making-requests): `POST|GET /bot<token>/<method>` with the parameters in the
 * query string, a JSON body or a form body; answers `{ ok: true, result }` or `{ ok: false, error_code,
 * description, parameters? }` with `error_code` as the HTTP status; 401 `Unauthorized` for a token it does not
 * know, 404 `Not Found` for a method it does not, 429 with `parameters.retry_after` when a test scripts flood
 * control; files at `/file/bot<token>/<file_path>`. A webhook set with `setWebhook` receives the bot's updates as
 * Telegram sends them: each a JSON POST with the `X-Telegram-Bot-Api-Secret-Token` header, one at a time and in order,
 * confirmed by a 2xx; any other answer (or none) is kept as the webhook's last error (`getWebhookInfo`) and the update
 * posted again after `webhookRetryMs`. `apiRoot` is what a client's `apiRoot` option takes.
 */
export class FakeTelegramServer {
  private server?: Server;
  private readonly bots = new Map<string, FakeBot>();
  /** Webhook posts in flight and their retry timers. */
  private readonly work = new BackgroundWork();
  /** Bots whose webhook has a post in flight (one at a time, as with max_connections 1). */
  private readonly posting = new Set<FakeBot>();
  /** Bots whose last post failed: no post before the retry's timer fires. */
  private readonly waiting = new Set<FakeBot>();
  /** Every webhook post, in order: the update and the HTTP status it was answered with (0: no answer). */
  readonly webhookPosts: { bot: FakeBot; update: TgUpdate; status: number }[] = [];

  constructor(private readonly options: { webhookRetryMs?: number } = {}) {}

  get apiRoot(): string {
    return localOrigin(this.server!);
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await listenLocal(this.server);
    return this;
  }

  async close(): Promise<void> {
    this.work.stop();
    await closeServer(this.server);
    await this.work.settled();
  }

  /** A bot account BotFather made: its token is `<id>:<secret>`. */
  addBot(username: string, id = 7_000_000_000 + this.bots.size): FakeBot {
    const token = `${id}:AA${Buffer.from(username).toString('hex')}${'x'.repeat(20)}`.slice(0, 46);
    const bot = new FakeBot(token, { id, first_name: username, username });
    this.bots.set(token, bot);
    bot.onChange(() => this.deliverWebhook(bot));
    return bot;
  }

  bot(token: string): FakeBot {
    const bot = this.bots.get(token);
    if (!bot) throw new Error(`no fake bot with that token`);
    return bot;
  }

  // ── what people do in Telegram ──

  /** A direct message from `from` to the bot. */
  dm(bot: FakeBot, from: TgUser, text: string, extra: Partial<TgMessage> = {}): TgMessage {
    const chat: TgChat = {
      id: from.id,
      type: 'private',
      first_name: from.first_name,
      ...(from.username ? { username: from.username } : {}),
    };
    return bot.receive({ from, chat, text, ...extra });
  }

  /**
   * A group message. `mention` puts `@<bot> ` in front with its `mention` entity; `replyTo` makes it a reply
   * (to the bot's message when the id is one of them); `threadId` posts it in a forum topic.
   */
  groupMessage(
    bot: FakeBot,
    group: TgChat,
    from: TgUser,
    text: string,
    options: { mention?: boolean; replyTo?: number; threadId?: number } = {},
  ): TgMessage {
    const prefix = options.mention ? `@${bot.user.username} ` : '';
    const replied = options.replyTo === undefined ? undefined : { message_id: options.replyTo, chat: group, date: 0, from: bot.user };
    const replyFrom = options.replyTo === undefined ? undefined : bot.botMessages(group.id).find((m) => m.messageId === options.replyTo);
    return bot.receive({
      from,
      chat: group,
      text: prefix + text,
      ...(options.mention ? { entities: [{ type: 'mention', offset: 0, length: prefix.length - 1 }] } : {}),
      ...(replied ? { reply_to_message: replyFrom ? { ...replied, text: replyFrom.text } : { ...replied, from } } : {}),
      ...(options.threadId !== undefined ? { message_thread_id: options.threadId, is_topic_message: true as const } : {}),
    });
  }

  /** A document someone sends the bot in a DM: stored so that `getFile` and the download path serve it. */
  dmDocument(bot: FakeBot, from: TgUser, file: { name: string; mimeType: string; data: Buffer }, caption?: string): TgMessage {
    const fileId = `doc${bot.files.size + 1}`;
    bot.files.set(fileId, { filePath: `documents/file_${bot.files.size}.bin`, data: file.data, name: file.name, mimeType: file.mimeType });
    const chat: TgChat = { id: from.id, type: 'private', first_name: from.first_name };
    return bot.receive({
      from,
      chat,
      ...(caption ? { caption } : {}),
      document: {
        file_id: fileId,
        file_unique_id: `u${fileId}`,
        file_name: file.name,
        mime_type: file.mimeType,
        file_size: file.data.length,
      },
    });
  }

  /** A photo someone sends the bot in a DM, in the sizes Telegram makes (the last the original, the largest). */
  dmPhoto(bot: FakeBot, from: TgUser, data: Buffer, caption?: string): TgMessage {
    const fileId = `photo${bot.files.size + 1}`;
    bot.files.set(fileId, { filePath: `photos/file_${bot.files.size}.jpg`, data, mimeType: 'image/jpeg' });
    const thumbId = `thumb${bot.files.size + 1}`;
    bot.files.set(thumbId, { filePath: `photos/file_${bot.files.size}.jpg`, data: data.subarray(0, 8), mimeType: 'image/jpeg' });
    const chat: TgChat = { id: from.id, type: 'private', first_name: from.first_name };
    return bot.receive({
      from,
      chat,
      ...(caption ? { caption } : {}),
      photo: [
        { file_id: thumbId, file_unique_id: `u${thumbId}`, width: 90, height: 90, file_size: Math.min(8, data.length) },
        { file_id: fileId, file_unique_id: `u${fileId}`, width: 1280, height: 960, file_size: data.length },
      ],
    });
  }

  static user(first_name: string, id = nextChatId++): TgUser {
    return { id, is_bot: false, first_name, username: first_name.toLowerCase() };
  }

  static group(title: string, options: { forum?: boolean } = {}): TgChat {
    return { id: -(1_000_000_000_000 + nextChatId++), type: 'supergroup', title, ...(options.forum ? { is_forum: true as const } : {}) };
  }

  // ── what the test inspects ──

  calls(bot: FakeBot, method?: string): RecordedCall[] {
    return bot.calls.filter((c) => method === undefined || c.method.toLowerCase() === method.toLowerCase());
  }

  /** Resolves once `predicate` holds for the bot (checked at each change it sees), or rejects after `timeoutMs`. */
  waitFor<T>(bot: FakeBot, predicate: () => T | undefined | false, timeoutMs = 10_000, what = 'the condition'): Promise<T> {
    return waitForChange((listener) => bot.onChange(listener), predicate, timeoutMs, `fake Telegram: timed out waiting for ${what}`);
  }

  /** Waits until the bot's messages in `chatId` satisfy `predicate`. */
  waitForMessages(bot: FakeBot, chatId: number, predicate: (messages: BotMessage[]) => boolean, timeoutMs = 10_000): Promise<BotMessage[]> {
    return this.waitFor(
      bot,
      () => (predicate(bot.botMessages(chatId)) ? bot.botMessages(chatId) : undefined),
      timeoutMs,
      `messages in chat ${chatId}`,
    );
  }

  // ── the HTTP protocol ──

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const file = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (file) return this.download(res, file[1], decodeURIComponent(file[2]));
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    if (!match) return reply(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
    const bot = this.bots.get(decodeURIComponent(match[1]));
    if (!bot) return reply(res, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
    const method = match[2];

    let params: Record<string, unknown>;
    try {
      params = { ...Object.fromEntries(url.searchParams), ...(await readParams(req)) };
    } catch (error) {
      return reply(res, 400, { ok: false, error_code: 400, description: (error as Error).message });
    }
    const call: RecordedCall = { method, params, ok: false };
    bot.record(call);
    try {
      let result: unknown;
      if (method.toLowerCase() === 'getupdates') {
        // A long poll whose client hung up still takes its answer (nothing is confirmed but by a later offset).
        result = await bot.getUpdates(params);
      } else {
        result = bot.call(method, params);
      }
      call.ok = true;
      call.result = result;
      reply(res, 200, { ok: true, result });
    } catch (error) {
      if (!(error instanceof TgError)) throw error;
      call.description = error.description;
      reply(res, error.code, {
        ok: false,
        error_code: error.code,
        description: error.description,
        ...(error.parameters ? { parameters: error.parameters } : {}),
      });
    }
  }

  private download(res: ServerResponse, token: string, filePath: string): void {
    const bot = this.bots.get(token);
    const file = bot && [...bot.files.values()].find((f) => f.filePath === filePath);
    if (!file) return reply(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.data.length });
    res.end(file.data);
  }

  /**
   * Posts `update` to the bot's webhook again, as Telegram does when the answer to an earlier post was lost: the
   * status it was answered with.
   */
  async redeliver(bot: FakeBot, update: TgUpdate): Promise<number> {
    return this.post(bot, update);
  }

  /** The oldest update the webhook has not confirmed, posted once no other post is in flight; a failure is retried later. */
  private deliverWebhook(bot: FakeBot): void {
    const next = bot.webhookQueue()[0];
    if (!bot.webhook || !next || this.work.stopped || this.posting.has(bot) || this.waiting.has(bot)) return;
    this.posting.add(bot);
    this.work.run(async () => {
      const status = await this.post(bot, next);
      this.posting.delete(bot);
      if (status >= 200 && status < 300) return bot.confirm(next.update_id);
      this.waiting.add(bot);
      this.work.later(() => {
        this.waiting.delete(bot);
        this.deliverWebhook(bot);
      }, this.options.webhookRetryMs ?? 200);
      bot.webhookFailed(status ? `Wrong response from the webhook: ${status}` : 'Connection refused');
    });
  }

  private async post(bot: FakeBot, update: TgUpdate): Promise<number> {
    const hook = bot.webhook;
    if (!hook) throw new Error('the bot has no webhook');
    let status = 0;
    try {
      const response = await fetch(hook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(hook.secretToken ? { 'x-telegram-bot-api-secret-token': hook.secretToken } : {}),
        },
        body: JSON.stringify(update),
      });
      await response.arrayBuffer();
      status = response.status;
    } catch {
      // No answer: Telegram counts it as a failed delivery.
    }
    this.webhookPosts.push({ bot, update, status });
    return status;
  }
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * The body's parameters: JSON, a URL-encoded form (whose object values are JSON strings), or multipart/form-data,
 * how files are uploaded (https://core.telegram.org/bots/api#sending-files): a file is the part named by its parameter,
 * or the part a parameter `attach://<name>` points to; such a parameter becomes an `UploadedFile`.
 */
async function readParams(req: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await readBody(req);
  const body = raw.toString('utf8');
  if (!body) return {};
  const type = mediaTypeOf(req);
  if (type === 'multipart/form-data') return formParams(parseMultipart(raw, req.headers['content-type'] ?? ''));
  return jsonOrFormParams(body, type, (what) => new Error(`Bad Request: ${what}`));
}
