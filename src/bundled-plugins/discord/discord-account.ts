import { Client, Events, GatewayIntentBits, Partials, RESTEvents, type Message, type SendableChannels } from 'discord.js';
import type { ChannelContext, ChannelDeliveryReceipt, ChannelOutboundMessage } from '../../plugin-sdk';
import { ChatPacer, sleep, splitMarkdown } from '../chat-kit';
import type { DiscordAccountConfig } from './discord-config';
import { describeDiscordError, isTokenRejected } from './discord-errors';
import { inboundOf } from './discord-inbound';
import { DISCORD_TEXT_LIMIT, DiscordReply, type ReplyChannel } from './discord-reply';

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

/** How many message ids are remembered to recognise one Discord delivers twice (a replay after a resume). */
const SEEN_IDS = 1000;

type HealthState = 'connecting' | 'connected' | 'reconnecting' | 'failed' | 'stopped';

/**
 * One bot: its discord.js `Client` (REST at the account's `api`, the Gateway at the URL `GET /gateway/bot` gives),
 * the messages it hears handed to the gateway one after the other, and the replies in flight. discord.js itself
 * queues REST calls per rate-limit bucket and waits out 429s, and resumes a dropped Gateway session (Discord then
 * replays what was missed); this class reports those as health and log lines. Replies in one channel go out in the
 * order the messages came; other channels' do not wait for them.
 */
export class DiscordAccount {
  private readonly abort = new AbortController();
  private readonly pacer: ChatPacer;
  private readonly seen = new Set<string>();
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
      for (const [index, piece] of splitMarkdown(message.text, DISCORD_TEXT_LIMIT).entries()) {
        await this.pacer.turn(target.id, this.abort.signal);
        const id = await target.send(piece, index === 0 ? message.replyToId : undefined);
        firstId ??= id;
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
      this.intake = this.intake
        .then(() => this.handle(message))
        .catch((error: unknown) => log.error(`discord: ${describeDiscordError(this.accountId, error)}`));
    });
    return client;
  }

  private async handle(message: Message): Promise<void> {
    const botId = this.client?.user?.id;
    if (!botId || this.abort.signal.aborted || this.alreadySeen(message.id)) return;
    const verdict = inboundOf(message, botId, this.accountId, this.config.guilds);
    if (verdict.kind === 'dropped')
      return this.context.logger.debug(`discord account ${this.accountId}: message ${message.id} dropped: ${verdict.reason}`);
    if (!verdict.message.text.trim()) return;
    const outcome = await this.context.inbound(verdict.message);
    if (outcome.kind === 'ignored') {
      this.context.logger.debug(`discord account ${this.accountId}: message ${message.id} ignored: ${outcome.reason}`);
      return;
    }
    if (!message.channel.isSendable()) return;
    const target = replyChannelOf(message.channel);
    const reply = new DiscordReply(target, this.pacer, message.id);
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
          `discord: the reply to message ${message.id} in channel ${target.id} was not delivered: ${describeDiscordError(this.accountId, error)}`,
        );
      });
    this.channelChains.set(target.id, delivery);
    this.deliveries.add(delivery);
    void delivery.finally(() => {
      this.deliveries.delete(delivery);
      if (this.channelChains.get(target.id) === delivery) this.channelChains.delete(target.id);
    });
  }

  private alreadySeen(id: string): boolean {
    if (this.seen.has(id)) return true;
    this.seen.add(id);
    if (this.seen.size > SEEN_IDS) this.seen.delete(this.seen.values().next().value as string);
    return false;
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
