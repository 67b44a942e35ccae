import { createServer, Server } from 'node:http';
import { closeServer, listenLocal, localOrigin } from '../fake-http';
import { guildPayloads, threadPayload } from './discord-guild-payloads';
import type { BotMessage, DAttachment, DChannel, DGuild, DMessage, DUser } from './discord-types';
import { FakeDiscordFiles, type FileUpload } from './fake-discord-files';
import { FakeDiscordGateway, INTENTS } from './fake-discord-gateway';
import { FakeDiscordMessages } from './fake-discord-messages';
import { FakeDiscordRest } from './fake-discord-rest';
import { FakeDiscordBot, FakeDiscordWorld, makeUser, snowflake } from './fake-discord-world';

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
  private readonly messages = new FakeDiscordMessages(this.world, this.bots, this.files, () => this.gateway!);
  private readonly rest = new FakeDiscordRest({
    world: this.world,
    bots: this.bots,
    files: this.files,
    messages: this.messages,
    gatewayUrl: () => this.gatewayUrl,
  });

  constructor(private readonly options: { heartbeatIntervalMs?: number } = {}) {}

  get baseUrl(): string {
    return localOrigin(this.server!);
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
      { botByToken: (token) => this.bots.get(token), guildsOf: (bot) => guildPayloads(this.world, bot) },
      () => this.gatewayUrl,
      this.options.heartbeatIntervalMs ?? 41_250,
    );
    this.server = createServer((req, res) => void this.rest.handle(req, res));
    this.server.on('upgrade', (req, socket, head) => {
      if (new URL(req.url ?? '/', 'http://x').pathname === '/gateway') this.gateway!.upgrade(req, socket, head);
      else socket.destroy();
    });
    await listenLocal(this.server);
    return this;
  }

  async close(): Promise<void> {
    this.gateway?.close();
    await closeServer(this.server);
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
    for (const bot of this.messages.botsSeeing(thread)) {
      this.gateway!.dispatch(bot, 'THREAD_CREATE', { ...threadPayload(thread), newly_created: true }, INTENTS.GUILDS);
    }
    return thread;
  }

  // ── what people do in Discord ──

  /** A direct message from `from` to the bot. */
  dm(bot: FakeDiscordBot, from: DUser, text: string): DMessage {
    const channel = this.world.dmChannel(bot.user, from);
    return this.messages.post(channel, from, text);
  }

  /** A direct message with files attached (served by the fake's CDN). */
  dmWithFiles(bot: FakeDiscordBot, from: DUser, text: string, files: FileUpload[]): DMessage {
    const channel = this.world.dmChannel(bot.user, from);
    return this.messages.post(channel, from, text, undefined, files);
  }

  /**
   * A message in a guild channel or thread. `mention` puts `<@botid> ` in front (and the bot in `mentions`);
   * `replyTo` makes it a reply to that message.
   */
  guildMessage(channel: DChannel, from: DUser, text: string, options: { mention?: FakeDiscordBot; replyTo?: string } = {}): DMessage {
    const content = options.mention ? `<@${options.mention.user.id}> ${text}` : text;
    return this.messages.post(channel, from, content, options.replyTo);
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
}
