import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import type { BotMessage, DAttachment, DChannel, DGuild, DMessage, DUser } from './discord-types';
import { FakeDiscordFiles, type FileUpload } from './fake-discord-files';
import { FakeDiscordGateway, INTENTS } from './fake-discord-gateway';
import { FakeDiscordBot, FakeDiscordWorld, makeUser, snowflake } from './fake-discord-world';

/** A Discord error body: `{ message, code }` (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json). */
class DiscordHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message));
  }
}

const DISCORD_TEXT_LIMIT = 2000;

/**
 * A fake Discord on a real port: the REST API v10 under `<baseUrl>/api/v10` and the Gateway WebSocket at
 * `<baseUrl>/gateway` (what `GET /gateway/bot` returns), speaking the documented protocols
 * (https://discord.com/developers/docs/reference). REST calls need `Authorization: Bot <token>` (else 401
 * `{"message":"401: Unauthorized","code":0}`); answers carry the `X-RateLimit-*` headers and a bucket hash; a scripted
 * rate limit answers 429 with `retry_after` in the body and `Retry-After` / `X-RateLimit-*` headers, the way
 * @discordjs/rest reads them. discord.js is pointed here with `rest: { api: server.api }`.
 */
export class FakeDiscordServer {
  private server?: Server;
  private gateway?: FakeDiscordGateway;
  private readonly world = new FakeDiscordWorld();
  private readonly bots = new Map<string, FakeDiscordBot>();
  private readonly files = new FakeDiscordFiles(() => this.baseUrl);

  constructor(private readonly options: { heartbeatIntervalMs?: number } = {}) {}

  get baseUrl(): string {
    const { port } = this.server!.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** What discord.js's `rest.api` option takes (it appends `/v10`). */
  get api(): string {
    return `${this.baseUrl}/api`;
  }

  get gatewayUrl(): string {
    return `${this.baseUrl.replace(/^http/, 'ws')}/gateway`;
  }

  async start(): Promise<this> {
    this.gateway = new FakeDiscordGateway(
      { botByToken: (token) => this.bots.get(token), guildsOf: (bot) => this.guildPayloads(bot) },
      () => this.gatewayUrl,
      this.options.heartbeatIntervalMs ?? 41_250,
    );
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('upgrade', (req, socket, head) => {
      if (new URL(req.url ?? '/', 'http://x').pathname === '/gateway') this.gateway!.upgrade(req, socket, head);
      else socket.destroy();
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async close(): Promise<void> {
    this.gateway?.close();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  // ── the world a test sets up ──

  /** A bot application with its token (`<base64 id>.<timestamp>.<hmac>`-shaped, as Discord's are). */
  addBot(name: string): FakeDiscordBot {
    const user = makeUser(name, true);
    const token = `${Buffer.from(user.id).toString('base64url')}.G${snowflake().slice(-5)}.${'x'.repeat(27)}${this.bots.size}`;
    const bot = new FakeDiscordBot(token, user);
    this.bots.set(token, bot);
    return bot;
  }

  static user(name: string): DUser {
    return makeUser(name);
  }

  /** A guild with text channels by name, the bots as members. */
  addGuild(name: string, bots: FakeDiscordBot[], channelNames: string[] = ['general']): { guild: DGuild; channels: DChannel[] } {
    const guild: DGuild = { id: snowflake(), name, owner_id: snowflake() };
    this.world.guilds.set(guild.id, { guild, members: new Set(bots.map((b) => b.user.id)) });
    const channels = channelNames.map((channelName) => {
      const channel: DChannel = { id: snowflake(), type: 0, guild_id: guild.id, name: channelName, last_message_id: null };
      this.world.channels.set(channel.id, channel);
      return channel;
    });
    return { guild, channels };
  }

  /** A public thread in a guild text channel; its guild's bots hear THREAD_CREATE. */
  addThread(parent: DChannel, name: string): DChannel {
    const thread: DChannel = { id: snowflake(), type: 11, guild_id: parent.guild_id, parent_id: parent.id, name, last_message_id: null };
    this.world.channels.set(thread.id, thread);
    for (const bot of this.botsSeeing(thread)) {
      this.gateway!.dispatch(bot, 'THREAD_CREATE', { ...threadPayload(thread), newly_created: true }, INTENTS.GUILDS);
    }
    return thread;
  }

  // ── what people do in Discord ──

  /** A direct message from `from` to the bot. */
  dm(bot: FakeDiscordBot, from: DUser, text: string): DMessage {
    const channel = this.world.dmChannel(bot.user, from);
    return this.post(channel, from, text);
  }

  /** A direct message with files attached (served by the fake's CDN). */
  dmWithFiles(bot: FakeDiscordBot, from: DUser, text: string, files: FileUpload[]): DMessage {
    const channel = this.world.dmChannel(bot.user, from);
    return this.post(channel, from, text, undefined, files);
  }

  /**
   * A message in a guild channel or thread. `mention` puts `<@botid> ` in front (and the bot in `mentions`);
   * `replyTo` makes it a reply to that message.
   */
  guildMessage(channel: DChannel, from: DUser, text: string, options: { mention?: FakeDiscordBot; replyTo?: string } = {}): DMessage {
    const content = options.mention ? `<@${options.mention.user.id}> ${text}` : text;
    return this.post(channel, from, content, options.replyTo);
  }

  // ── what a test inspects ──

  botMessages(bot: FakeDiscordBot, channelId?: string): BotMessage[] {
    return this.world.botMessages(bot.user.id, channelId);
  }

  /** Waits until the bot's messages in the channel satisfy `done`; returns them. */
  async waitForMessages(
    bot: FakeDiscordBot,
    channelId: string,
    done: (messages: BotMessage[]) => boolean,
    timeoutMs = 10_000,
  ): Promise<BotMessage[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const messages = this.botMessages(bot, channelId);
      if (done(messages)) return messages;
      if (Date.now() > deadline) throw new Error(`timed out waiting for the bot's messages in ${channelId}: ${JSON.stringify(messages)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** The bytes of an attachment the fake's CDN serves (undefined once removed). */
  attachmentBytes(attachment: DAttachment): Buffer | undefined {
    return this.files.bytesOf(attachment);
  }

  /** The CDN stops serving the attachment (an expired or deleted file). */
  removeAttachment(attachment: DAttachment): void {
    this.files.remove(attachment);
  }

  /** The DM channel between the bot and a user (where its replies to that user's DMs go). */
  dmChannelId(bot: FakeDiscordBot, user: DUser): string {
    return this.world.dmChannel(bot.user, user).id;
  }

  /** Drops the bot's Gateway connections (a network failure); returns how many there were. */
  dropGateway(bot: FakeDiscordBot): number {
    return this.gateway!.drop(bot);
  }

  liveConnections(bot: FakeDiscordBot): number {
    return this.gateway!.liveConnections(bot);
  }

  // ── the REST API ──

  private post(channel: DChannel, author: DUser, content: string, replyTo?: string, files: FileUpload[] = []): DMessage {
    const referenced = replyTo ? this.world.message(channel.id, replyTo) : undefined;
    const message: DMessage = {
      id: snowflake(),
      type: referenced ? 19 : 0,
      channel_id: channel.id,
      ...(channel.guild_id ? { guild_id: channel.guild_id } : {}),
      author,
      content,
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: this.mentionsIn(content),
      mention_roles: [],
      attachments: files.map((f) => this.files.attach(channel.id, f)),
      embeds: [],
      pinned: false,
      ...(referenced
        ? {
            message_reference: {
              type: 0,
              message_id: referenced.id,
              channel_id: channel.id,
              ...(channel.guild_id ? { guild_id: channel.guild_id } : {}),
            },
            referenced_message: referenced,
          }
        : {}),
    };
    this.world.addMessage(message);
    this.announce(channel, 'MESSAGE_CREATE', message);
    return message;
  }

  /** MESSAGE_CREATE / MESSAGE_UPDATE to every bot that sees the channel, shaped by each session's intents. */
  private announce(channel: DChannel, t: 'MESSAGE_CREATE' | 'MESSAGE_UPDATE', message: DMessage): void {
    const intent = channel.type === 1 ? INTENTS.DIRECT_MESSAGES : INTENTS.GUILD_MESSAGES;
    for (const bot of this.botsSeeing(channel)) {
      this.gateway!.dispatch(bot, t, message, intent, (d, session) => {
        const m = d as DMessage;
        // Without MESSAGE_CONTENT, a guild message's content is empty unless the bot is mentioned or wrote it.
        const readable =
          session.intents & INTENTS.MESSAGE_CONTENT ||
          channel.type === 1 ||
          m.author.id === bot.user.id ||
          m.mentions.some((u) => u.id === bot.user.id);
        return {
          ...m,
          ...(readable ? {} : { content: '', attachments: [] }),
          ...(channel.type === 1 ? { channel_type: 1 } : { channel_type: channel.type }),
        };
      });
    }
  }

  private botsSeeing(channel: DChannel): FakeDiscordBot[] {
    return [...this.bots.values()].filter((bot) => this.world.visible(bot, channel));
  }

  private mentionsIn(content: string): DUser[] {
    const ids = [...content.matchAll(/<@!?(\d+)>/g)].map((m) => m[1]);
    return [...this.bots.values()].map((b) => b.user).filter((u) => ids.includes(u.id));
  }

  private guildPayloads(bot: FakeDiscordBot): Record<string, unknown>[] {
    return [...this.world.guilds.values()]
      .filter((g) => g.members.has(bot.user.id))
      .map(({ guild }) => {
        const channels = this.world.guildChannels(guild.id);
        return {
          ...guild,
          unavailable: false,
          member_count: 2,
          large: false,
          joined_at: new Date().toISOString(),
          roles: [
            {
              id: guild.id,
              name: '@everyone',
              permissions: '1024',
              position: 0,
              color: 0,
              hoist: false,
              managed: false,
              mentionable: false,
            },
          ],
          emojis: [],
          features: [],
          members: [{ user: bot.user, roles: [], joined_at: new Date().toISOString(), deaf: false, mute: false }],
          channels: channels
            .filter((c) => c.type === 0)
            .map((c) => ({ id: c.id, type: c.type, name: c.name, position: 0, permission_overwrites: [] })),
          threads: channels.filter((c) => c.type === 11).map(threadPayload),
          voice_states: [],
          presences: [],
          stage_instances: [],
          guild_scheduled_events: [],
        };
      });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    const method = (req.method ?? 'GET').toUpperCase();
    if (this.files.serve(url.pathname, url.searchParams, res)) return;
    const match = /^\/api\/v10(\/.*)$/.exec(url.pathname);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    const raw = bytes.toString('utf8');
    const multipart = /^multipart\/form-data/i.test(req.headers['content-type'] ?? '');
    if (!match) return this.reply(res, 404, { message: '404: Not Found', code: 0 });
    const route = match[1];
    const bot = this.bots.get((req.headers.authorization ?? '').replace(/^Bot /, ''));
    if (!bot || !(req.headers.authorization ?? '').startsWith('Bot '))
      return this.reply(res, 401, { message: '401: Unauthorized', code: 0 });
    let body: unknown;
    let uploads: FileUpload[] = [];
    try {
      if (multipart) ({ body, files: uploads } = FakeDiscordFiles.readUpload(bytes, req.headers['content-type'] ?? ''));
      else body = raw ? JSON.parse(raw) : undefined;
    } catch {
      return this.reply(res, 400, { message: '400: Bad Request', code: 0 });
    }
    const retryAfter = bot.takeLimit(method, route);
    if (retryAfter !== undefined) {
      bot.calls.push({ method, route, body, status: 429 });
      return this.reply(
        res,
        429,
        { message: 'You are being rate limited.', retry_after: retryAfter, global: false },
        {
          'Retry-After': String(Math.ceil(retryAfter)),
          'X-RateLimit-Limit': '5',
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset': String(Date.now() / 1000 + retryAfter),
          'X-RateLimit-Reset-After': String(retryAfter),
          'X-RateLimit-Bucket': bucketOf(route),
          'X-RateLimit-Scope': 'user',
        },
      );
    }
    try {
      const answer = this.route(bot, method, route, body, uploads);
      bot.calls.push({ method, route, body, status: answer === undefined ? 204 : 200 });
      return this.reply(res, answer === undefined ? 204 : 200, answer, {
        'X-RateLimit-Limit': '50',
        'X-RateLimit-Remaining': '49',
        'X-RateLimit-Reset': String(Date.now() / 1000 + 1),
        'X-RateLimit-Reset-After': '1',
        'X-RateLimit-Bucket': bucketOf(route),
      });
    } catch (error) {
      if (!(error instanceof DiscordHttpError)) throw error;
      bot.calls.push({ method, route, body, status: error.status });
      return this.reply(res, error.status, error.body);
    }
  }

  private route(bot: FakeDiscordBot, method: string, route: string, body: unknown, uploads: FileUpload[]): unknown {
    const key = `${method} ${route.replace(/\/\d+/g, '/:id')}`;
    const ids = [...route.matchAll(/\/(\d+)/g)].map((m) => m[1]);
    switch (key) {
      case 'GET /gateway/bot':
        return {
          url: this.gatewayUrl,
          shards: 1,
          session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
        };
      case 'GET /users/@me':
        return bot.user;
      case 'POST /users/@me/channels': {
        const recipient = (body as { recipient_id?: string } | undefined)?.recipient_id;
        const user = recipient ? this.knownUser(recipient) : undefined;
        if (!user) throw invalidForm('recipient_id', 'Unknown user');
        return this.world.dmChannel(bot.user, user);
      }
      case 'GET /channels/:id':
        return this.channel(bot, ids[0]);
      case 'POST /channels/:id/typing':
        this.channel(bot, ids[0]);
        return undefined;
      case 'POST /channels/:id/messages':
        return this.createMessage(bot, this.channel(bot, ids[0]), body as Record<string, unknown>, uploads);
      case 'PATCH /channels/:id/messages/:id':
        return this.editMessage(bot, this.channel(bot, ids[0]), ids[1], body as Record<string, unknown>);
      default:
        throw new DiscordHttpError(404, { message: '404: Not Found', code: 0 });
    }
  }

  private channel(bot: FakeDiscordBot, id: string): DChannel {
    const channel = this.world.channels.get(id);
    if (!channel) throw new DiscordHttpError(404, { message: 'Unknown Channel', code: 10003 });
    if (!this.world.visible(bot, channel)) throw new DiscordHttpError(403, { message: 'Missing Access', code: 50001 });
    return channel;
  }

  private createMessage(bot: FakeDiscordBot, channel: DChannel, body: Record<string, unknown>, uploads: FileUpload[]): DMessage {
    const content = typeof body?.content === 'string' ? body.content : '';
    if (uploads.length > 10) throw invalidForm('files', 'Must be 10 or fewer in length.', 'BASE_TYPE_MAX_LENGTH');
    if (!content.trim() && !uploads.length) throw new DiscordHttpError(400, { message: 'Cannot send an empty message', code: 50006 });
    if (content.length > DISCORD_TEXT_LIMIT)
      throw invalidForm('content', `Must be ${DISCORD_TEXT_LIMIT} or fewer in length.`, 'BASE_TYPE_MAX_LENGTH');
    const reference = body.message_reference as { message_id?: string; fail_if_not_exists?: boolean } | undefined;
    if (reference?.message_id && !this.world.message(channel.id, reference.message_id) && reference.fail_if_not_exists !== false) {
      throw invalidForm('message_reference', 'Unknown message', 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE');
    }
    return this.post(channel, bot.user, content, reference?.message_id, uploads);
  }

  private editMessage(bot: FakeDiscordBot, channel: DChannel, messageId: string, body: Record<string, unknown>): DMessage {
    const message = this.world.message(channel.id, messageId);
    if (!message) throw new DiscordHttpError(404, { message: 'Unknown Message', code: 10008 });
    if (message.author.id !== bot.user.id)
      throw new DiscordHttpError(403, { message: 'Cannot edit a message authored by another user', code: 50005 });
    if (typeof body?.content === 'string') {
      if (!body.content.trim()) throw new DiscordHttpError(400, { message: 'Cannot send an empty message', code: 50006 });
      if (body.content.length > DISCORD_TEXT_LIMIT)
        throw invalidForm('content', `Must be ${DISCORD_TEXT_LIMIT} or fewer in length.`, 'BASE_TYPE_MAX_LENGTH');
      message.content = body.content;
      message.mentions = this.mentionsIn(body.content);
    }
    message.edited_timestamp = new Date().toISOString();
    this.world.edited(message);
    this.announce(channel, 'MESSAGE_UPDATE', message);
    return message;
  }

  private knownUser(id: string): DUser | undefined {
    for (const list of this.world.messages.values()) {
      const found = list.find((m) => m.author.id === id)?.author;
      if (found) return found;
    }
    for (const channel of this.world.channels.values()) {
      const found = channel.recipients?.find((r) => r.id === id);
      if (found) return found;
    }
    return undefined;
  }

  private reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  }
}

/** Discord's 50035 "Invalid Form Body" with the field's error. */
function invalidForm(field: string, message: string, code = 'BASE_TYPE_INVALID'): DiscordHttpError {
  return new DiscordHttpError(400, { message: 'Invalid Form Body', code: 50035, errors: { [field]: { _errors: [{ code, message }] } } });
}

function bucketOf(route: string): string {
  return Buffer.from(route.replace(/\/messages\/\d+/, '/messages/:id'))
    .toString('hex')
    .slice(0, 32);
}

function threadPayload(thread: DChannel): Record<string, unknown> {
  return {
    id: thread.id,
    type: thread.type,
    guild_id: thread.guild_id,
    parent_id: thread.parent_id,
    name: thread.name,
    owner_id: snowflake(),
    message_count: 0,
    member_count: 1,
    thread_metadata: { archived: false, auto_archive_duration: 1440, archive_timestamp: new Date().toISOString(), locked: false },
  };
}
