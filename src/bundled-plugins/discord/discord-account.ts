import * as path from 'node:path';
import { Client, Events, GatewayIntentBits, Partials, RESTEvents, type Message, type SendableChannels } from 'discord.js';
import type { ChannelContext, ChannelDeliveryReceipt, ChannelOutboundMessage } from '../../plugin-sdk';
import { ChatPacer, sleep, splitMarkdown } from '../chat-kit';
import type { DiscordAccountConfig } from './discord-config';
import { describeDiscordError, isTokenRejected } from './discord-errors';
import { attachmentRefsOf, DiscordFiles } from './discord-files';
import { inboundOf } from './discord-inbound';
import { DISCORD_TEXT_LIMIT, DiscordReply, type ReplyChannel } from './discord-reply';
import { MessageJournal, type PendingMessage } from './message-journal';

export interface DiscordAccountOptions {
  /** Milliseconds between two writes in one channel (default 1000: Discord allows about 5 a 5 s per channel). */
  chatIntervalMs?: number;
}

/** DMs and guild messages with their content (MessageContent is privileged: enable it in the Developer Portal). */
const INTENTS = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildMessages,
  GatewayIntentBits.DirectMessages,
  GatewayIntentBits.MessageContent,
];

type HealthState = 'connecting' | 'connected' | 'reconnecting' | 'failed' | 'stopped';

/**
 * One bot: its discord.js `Client` (REST at the account's `api`, the Gateway at the URL `GET /gateway/bot` gives),
 * the messages it hears handed to the gateway one after the other, and the replies in flight. discord.js itself
 * queues REST calls per rate-limit bucket and waits out 429s, and resumes a dropped Gateway session (Discord then
 * replays what was missed); this class reports those as health and log lines. A message to be handed to the gateway
 * is journaled first and leaves the journal once answered: one the process received and had not answered when it
 * died is answered at the next start (Discord replays nothing to a new session), and a replay is recognised.
 * Replies in one channel go out in the order the messages came; other channels' do not wait for them.
 */
export class DiscordAccount {
  private readonly abort = new AbortController();
  private readonly pacer: ChatPacer;
  private readonly journal: MessageJournal;
  private readonly files: DiscordFiles;
  private readonly channelChains = new Map<string, Promise<void>>();
  private readonly deliveries = new Set<Promise<void>>();
  private intake: Promise<void> = Promise.resolve();
  private client?: Client;
  private connecting?: Promise<void>;

  constructor(
    readonly config: DiscordAccountConfig,
    private readonly context: ChannelContext,
    options: DiscordAccountOptions = {},
  ) {
    this.pacer = new ChatPacer(options.chatIntervalMs ?? 1000);
    this.files = new DiscordFiles(config.api, context);
    this.journal = MessageJournal.open(path.join(context.stateDir, 'accounts', encodeURIComponent(config.accountId), 'messages.json'));
  }

  get accountId(): string {
    return this.config.accountId;
  }

  start(): void {
    this.health('connecting');
    this.connecting = this.connect();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.connecting;
    await this.client?.destroy();
    await this.intake;
    await Promise.allSettled([...this.deliveries]);
    this.health('stopped');
  }

  /** Says something the gateway initiated: in pieces within Discord's limit, in the DM or channel (thread) named. */
  async send(message: ChannelOutboundMessage): Promise<ChannelDeliveryReceipt> {
    const client = this.client;
    if (!client?.isReady()) return { status: 'failed', detail: `account ${this.accountId}: not connected to Discord` };
    try {
      const channel =
        message.peer.kind === 'dm'
          ? await client.users.createDM(message.peer.id)
          : await client.channels.fetch(message.threadId ?? message.peer.id);
      if (!channel?.isSendable())
        return { status: 'failed', detail: `account ${this.accountId}: channel ${message.peer.id} cannot be written to` };
      const target = replyChannelOf(channel);
      let firstId: string | undefined;
      // Files alone: no empty text message before them (Discord refuses one).
      const pieces = message.text.trim() || !message.files?.length ? splitMarkdown(message.text, DISCORD_TEXT_LIMIT) : [];
      for (const [index, piece] of pieces.entries()) {
        await this.pacer.turn(target.id, this.abort.signal);
        const id = await target.send(piece, index === 0 ? message.replyToId : undefined);
        firstId ??= id;
      }
      if (message.files?.length) {
        await this.pacer.turn(target.id, this.abort.signal);
        const [uploaded] = await this.files.upload(channel, message.files);
        firstId ??= uploaded;
      }
      return { status: 'delivered', ...(firstId ? { messageId: firstId } : {}) };
    } catch (error) {
      const detail = describeDiscordError(this.accountId, error);
      this.context.logger.error(`discord: a message to ${message.peer.kind} ${message.peer.id} was not delivered: ${detail}`);
      return { status: 'failed', detail };
    }
  }

  /** Logs in, retrying with a growing pause; a rejected token is reported failed and tried again less often. */
  private async connect(): Promise<void> {
    const signal = this.abort.signal;
    for (let failures = 0; !signal.aborted; failures++) {
      const client = this.newClient();
      this.client = client;
      try {
        await client.login(this.config.token);
        return;
      } catch (error) {
        await client.destroy().catch(() => undefined);
        if (signal.aborted) return;
        const detail = describeDiscordError(this.accountId, error);
        this.health(isTokenRejected(error) ? 'failed' : 'reconnecting', detail);
        this.context.logger.warn(`discord: ${detail}`);
        await sleep(Math.min(1000 * 2 ** Math.min(failures, 5), 30_000), signal);
      }
    }
  }

  private newClient(): Client {
    const client = new Client({
      intents: INTENTS,
      // A DM channel is not in the cache before its first message: without the partial, discord.js drops DMs.
      partials: [Partials.Channel],
      rest: { api: this.config.api },
      // An agent's text never pings @everyone, roles or users, nor the person it answers.
      allowedMentions: { parse: [], repliedUser: false },
    });
    const log = this.context.logger;
    client.once(Events.ClientReady, () => {
      // Messages taken before a restart and not yet answered.
      for (const entry of [...this.journal.pending()]) this.take(() => this.answer(entry));
    });
    client.on(Events.ClientReady, () => this.health('connected'));
    client.on(Events.ShardReconnecting, () =>
      this.health('reconnecting', `account ${this.accountId}: the Gateway connection dropped; resuming`),
    );
    client.on(Events.ShardResume, (_shard, replayed) => {
      log.info(`discord account ${this.accountId}: Gateway session resumed (${replayed} events replayed)`);
      this.health('connected');
    });
    client.on(Events.ShardDisconnect, (event) => {
      const tokenRejected = event.code === 4004;
      this.health(
        'failed',
        tokenRejected
          ? `account ${this.accountId}: token rejected by Discord (Gateway close 4004)`
          : `account ${this.accountId}: the Gateway closed the session (${event.code})`,
      );
    });
    client.on(Events.Error, (error) => log.error(`discord: ${describeDiscordError(this.accountId, error)}`));
    client.rest.on(RESTEvents.RateLimited, (info) =>
      log.warn(
        `discord account ${this.accountId}: ${info.method.toUpperCase()} ${info.route} rate limited (429), retrying in ${info.retryAfter} ms`,
      ),
    );
    client.on(Events.MessageCreate, (message) => {
      // Journaled at once, not at its turn: a message waiting behind others is on disk should the process die.
      let entry: PendingMessage | undefined;
      try {
        entry = this.receive(message);
      } catch (error) {
        // The journal's disk refused the write (full, say): the message is answered all the same, unjournaled.
        this.context.logger.error(`discord account ${this.accountId}: message ${message.id} not journaled: ${(error as Error).message}`);
        const verdict = this.client?.user ? inboundOf(message, this.client.user.id, this.accountId, this.config.guilds) : undefined;
        if (verdict?.kind === 'inbound') {
          const attachments = attachmentRefsOf(message);
          entry = { channelId: message.channelId, inbound: verdict.message, replyIds: [], ...(attachments.length ? { attachments } : {}) };
        }
      }
      if (entry) this.take(() => this.answer(entry, message.channel.isSendable() ? message.channel : undefined));
    });
    return client;
  }

  /** Messages are handed to the gateway one after the other, in the order they came. */
  private take(work: () => Promise<void>): void {
    this.intake = this.intake
      .then(work)
      .catch((error: unknown) => this.context.logger.error(`discord: ${describeDiscordError(this.accountId, error)}`));
  }

  /** Journals a message to be handed to the gateway; undefined when it is not for the gateway or taken before. */
  private receive(message: Message): PendingMessage | undefined {
    const botId = this.client?.user?.id;
    if (!botId || this.abort.signal.aborted) return undefined;
    const verdict = inboundOf(message, botId, this.accountId, this.config.guilds);
    if (verdict.kind === 'dropped') {
      this.context.logger.debug(`discord account ${this.accountId}: message ${message.id} dropped: ${verdict.reason}`);
      return undefined;
    }
    const attachments = attachmentRefsOf(message);
    if (!verdict.message.text.trim() && !attachments.length) return undefined;
    if (!this.journal.accept(message.channelId, verdict.message, attachments)) {
      this.context.logger.debug(`discord account ${this.accountId}: message ${message.id} was taken before (a replay): dropped`);
      return undefined;
    }
    return this.journal.pending().find((p) => p.inbound.messageId === message.id);
  }

  /** Hands a journaled message to the gateway, and delivers what it decided in the channel it came from. */
  private async answer(entry: PendingMessage, channel?: SendableChannels): Promise<void> {
    const messageId = entry.inbound.messageId;
    let outcome;
    try {
      const files = this.files.inboundFiles(entry.attachments ?? []);
      outcome = await this.context.inbound({ ...entry.inbound, ...(files.length ? { files } : {}) });
    } catch (error) {
      // The gateway could not take it (it is stopping, say): it stays journaled for the next start.
      this.context.logger.error(`discord account ${this.accountId}: message ${messageId} was not accepted: ${(error as Error).message}`);
      return;
    }
    if (outcome.kind === 'ignored') {
      this.context.logger.debug(`discord account ${this.accountId}: message ${messageId} ignored: ${outcome.reason}`);
      return this.settled(messageId);
    }
    const place = channel ?? (await this.sendableChannel(entry.channelId));
    if (!place) return this.settled(messageId);
    const target = replyChannelOf(place);
    const reply = new DiscordReply(target, this.pacer, messageId, entry.replyIds, (ids) =>
      this.keep(() => this.journal.recordReply(messageId, ids)),
    );
    const events =
      outcome.kind === 'reply'
        ? outcome.events
        : (async function* () {
            yield { type: 'final' as const, text: outcome.text };
          })();
    const previous = this.channelChains.get(target.id) ?? Promise.resolve();
    const delivery = previous
      .then(() => reply.deliver(events, this.abort.signal))
      .catch((error: unknown) => {
        this.context.logger.error(
          `discord: the reply to message ${messageId} in channel ${target.id} was not delivered: ${describeDiscordError(this.accountId, error)}`,
        );
      })
      .finally(() => this.settled(messageId));
    this.channelChains.set(target.id, delivery);
    this.deliveries.add(delivery);
    void delivery.finally(() => {
      this.deliveries.delete(delivery);
      if (this.channelChains.get(target.id) === delivery) this.channelChains.delete(target.id);
    });
  }

  /** The message is answered: it leaves the journal. */
  private settled(messageId: string): void {
    this.keep(() => this.journal.done(messageId));
  }

  /** A journal write; one the disk refuses is logged and the account goes on (a restart may answer it again). */
  private keep(write: () => void): void {
    try {
      write();
    } catch (error) {
      this.context.logger.error(`discord account ${this.accountId}: the message journal could not be written: ${(error as Error).message}`);
    }
  }

  /** The channel a journaled message came from, when it can still be written to. */
  private async sendableChannel(channelId: string): Promise<SendableChannels | undefined> {
    try {
      const channel = await this.client?.channels.fetch(channelId);
      if (channel?.isSendable()) return channel;
      this.context.logger.warn(`discord account ${this.accountId}: channel ${channelId} cannot be written to any more`);
    } catch (error) {
      this.context.logger.warn(`discord account ${this.accountId}: channel ${channelId}: ${describeDiscordError(this.accountId, error)}`);
    }
    return undefined;
  }

  private health(state: HealthState, error?: string): void {
    // discord.js reports its own shutdown as a reconnect: once stopping, only `stopped` is the account's state.
    if (this.abort.signal.aborted && state !== 'stopped') return;
    this.context.setHealth({ accountId: this.accountId, state, ...(error ? { error } : {}) });
  }
}

/** A Discord channel as the place a reply is written. */
function replyChannelOf(channel: SendableChannels): ReplyChannel {
  return {
    id: channel.id,
    send: async (content, replyTo) =>
      (await channel.send({ content, ...(replyTo ? { reply: { messageReference: replyTo, failIfNotExists: false } } : {}) })).id,
    edit: async (messageId, content) => {
      await channel.messages.edit(messageId, { content });
    },
    typing: () => channel.sendTyping(),
  };
}
