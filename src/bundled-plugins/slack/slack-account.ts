import * as path from 'node:path';
import { SocketModeClient } from '@slack/socket-mode';
import { LogLevel, WebClient, WebClientEvent, type Logger, type RetryOptions } from '@slack/web-api';
import type { ChannelContext, ChannelDeliveryReceipt, ChannelOutboundMessage, PluginLogger } from '../../plugin-sdk';
import { ChatPacer, sleep, splitMarkdown } from '../chat-kit';
import { EventJournal, type PendingEvent } from './event-journal';
import type { SlackAccountConfig } from './slack-config';
import { describeSlackError, isTokenRejected } from './slack-errors';
import { SlackFiles } from './slack-files';
import { inboundOf, isOwnMessage, isSaid, messageKeyOf, replyPlaceOf, type SlackEvent, type SlackIdentity } from './slack-inbound';
import { markdownToMrkdwn } from './slack-mrkdwn';
import { SLACK_TEXT_LIMIT, SlackReply } from './slack-reply';

export interface SlackAccountOptions {
  /** Milliseconds between two writes in one conversation (default 1000: Slack's chat.postMessage allows about one a second per channel). */
  chatIntervalMs?: number;
  /**
   * WebClient's retries (p-retry options). A 429 is waited out for its `Retry-After` by WebClient itself and the call
   * made again; this bounds how often, and how long it backs off after a network failure or a 5xx.
   */
  retryConfig?: RetryOptions;
  /** Socket Mode's client ping timeout, also its reconnect delay unit (default 5000 ms). */
  socketPingTimeoutMs?: number;
}

/** Five tries over about half a minute, then the failure is the caller's (a reply's delivery, an announce's receipt). */
const DEFAULT_RETRY: RetryOptions = { retries: 5, factor: 2, minTimeout: 500, maxTimeout: 15_000 };

/** An event callback's body (https://api.slack.com/apis/events-api#callback-field): the parts the channel reads. */
export interface SlackEventCallback {
  type?: string;
  event_id?: string;
  team_id?: string;
  event?: SlackEvent;
}

/**
 * One Slack app: its WebClient (bot token, pointed at `apiUrl`), its Socket Mode connection (app token) unless the
 * account runs in HTTP mode (the plugin's route hands it the events), the durable event journal, and the replies
 * in flight. An event is journaled, then acknowledged, then handed to the gateway; replies stream side by side,
 * one after the other within a conversation.
 */
export class SlackAccount {
  readonly web: WebClient;
  private socket?: SocketModeClient;
  private readonly journal: EventJournal;
  private readonly files: SlackFiles;
  private readonly pacer: ChatPacer;
  private readonly abort = new AbortController();
  private readonly chains = new Map<string, Promise<void>>();
  private readonly deliveries = new Set<Promise<void>>();
  private readonly inFlight = new Set<string>();
  private me?: SlackIdentity;

  constructor(
    readonly config: SlackAccountConfig,
    private readonly context: ChannelContext,
    private readonly options: SlackAccountOptions = {},
  ) {
    const logger = libraryLogger(context.logger, `slack account ${config.accountId}`);
    const retryConfig = options.retryConfig ?? DEFAULT_RETRY;
    this.web = new WebClient(config.botToken, { slackApiUrl: config.apiUrl, logger, retryConfig });
    this.web.on(WebClientEvent.RATE_LIMITED, (seconds: number, { url }: { url: string }) =>
      context.logger.warn(`slack account ${config.accountId}: ${url.replace(config.apiUrl, '')} rate limited, retried in ${seconds} s`),
    );
    this.files = new SlackFiles(this.web, config, context);
    this.pacer = new ChatPacer(options.chatIntervalMs ?? 1000);
    this.journal = EventJournal.open(path.join(context.stateDir, 'accounts', encodeURIComponent(config.accountId), 'events.json'));
  }

  get accountId(): string {
    return this.config.accountId;
  }

  start(): void {
    this.health('connecting');
    void this.connect().catch((error: unknown) => this.health('failed', describeSlackError(this.accountId, error)));
  }

  async stop(): Promise<void> {
    this.abort.abort();
    // A Web API call in flight (auth.test retrying an unreachable Slack) is not waited for: connect() checks the
    // signal after it and opens nothing once stopped.
    await this.socket?.disconnect().catch(() => undefined);
    await Promise.allSettled([...this.deliveries]);
    this.health('stopped');
  }

  /**
   * Says something the gateway initiated: in pieces within Slack's limit (a DM's peer id is the user: Slack opens the
   * DM), then its files by Slack's upload flow.
   */
  async send(message: ChannelOutboundMessage): Promise<ChannelDeliveryReceipt> {
    let first: string | undefined;
    try {
      // Files alone: no empty text message before them (Slack refuses one).
      const pieces = message.text.trim() || !message.files?.length ? splitMarkdown(message.text, SLACK_TEXT_LIMIT) : [];
      for (const piece of pieces) {
        await this.pacer.turn(message.peer.id, this.abort.signal);
        const posted = await this.web.chat.postMessage({
          channel: message.peer.id,
          text: markdownToMrkdwn(piece),
          mrkdwn: true,
          ...(message.threadId ? { thread_ts: message.threadId } : {}),
        });
        first ??= posted.ts;
      }
      if (message.files?.length) {
        await this.pacer.turn(message.peer.id, this.abort.signal);
        await this.files.upload(message.peer.id, message.files, message.threadId);
      }
      return { status: 'delivered', ...(first ? { messageId: first } : {}) };
    } catch (error) {
      const detail = describeSlackError(this.accountId, error);
      this.context.logger.error(`slack: a message to ${message.peer.id} was not delivered: ${detail}`);
      return { status: 'failed', detail };
    }
  }

  /**
   * An event callback, from the socket or the HTTP route. Journaled (unless it is a redelivery or nothing to
   * answer) before `acknowledge` runs; then handled. Resolves once it is acknowledged.
   */
  async receive(body: SlackEventCallback, acknowledge: () => Promise<void>): Promise<void> {
    const event = body.event;
    const eventId = body.event_id;
    if (body.type !== 'event_callback' || !event || !eventId || !isSaid(event) || !this.me) return acknowledge();
    const fresh = this.journal.accept({
      eventId,
      messageKey: messageKeyOf(event),
      event: { ...event },
      ...(body.team_id ? { teamId: body.team_id } : {}),
    });
    await acknowledge().catch((error: unknown) =>
      // Slack sends it again; the journal knows it.
      this.context.logger.debug(`slack account ${this.accountId}: event ${eventId} not acknowledged: ${(error as Error).message}`),
    );
    if (!fresh) {
      this.context.logger.debug(`slack account ${this.accountId}: event ${eventId} was taken before (a redelivery): dropped`);
      return;
    }
    const entry = this.journal.pending().find((p) => p.eventId === eventId);
    if (entry) await this.handle(entry);
  }

  private async connect(): Promise<void> {
    const signal = this.abort.signal;
    for (let failures = 0; !signal.aborted;) {
      try {
        const auth = await this.web.auth.test();
        if (signal.aborted) return;
        this.me = { userId: auth.user_id!, botId: auth.bot_id!, teamId: auth.team_id! };
        break;
      } catch (error) {
        if (signal.aborted) return;
        const detail = describeSlackError(this.accountId, error);
        this.context.logger.warn(`slack: ${detail}`);
        if (isTokenRejected(error)) return this.health('failed', detail);
        this.health('reconnecting', detail);
        await sleep(Math.min(1000 * 2 ** Math.min(failures++, 5), 30_000), signal);
      }
    }
    if (signal.aborted) return;
    // Events taken before a restart and not yet answered.
    for (const entry of [...this.journal.pending()]) await this.handle(entry);
    if (this.config.mode === 'http') return this.health('connected');
    if (!signal.aborted) await this.openSocket();
  }

  private async openSocket(): Promise<void> {
    const socket = new SocketModeClient({
      appToken: this.config.appToken!,
      logger: libraryLogger(this.context.logger, `slack account ${this.accountId} socket`),
      clientPingTimeout: this.options.socketPingTimeoutMs ?? 5000,
      clientOptions: { slackApiUrl: this.config.apiUrl },
    });
    this.socket = socket;
    socket.on('connected', () => this.health('connected'));
    socket.on('reconnecting', () => this.health('reconnecting', `account ${this.accountId}: the Socket Mode connection is being renewed`));
    socket.on('slack_event', (args: { type: string; body: SlackEventCallback; ack: () => Promise<void> }) => {
      if (args.type !== 'events_api') return void args.ack().catch(() => undefined);
      void this.receive(args.body, () => args.ack()).catch((error: unknown) =>
        this.context.logger.error(`slack account ${this.accountId}: an event was not handled: ${(error as Error).message}`),
      );
    });
    try {
      await socket.start();
    } catch (error) {
      if (this.abort.signal.aborted) return;
      const detail = describeSlackError(this.accountId, error, 'app token');
      this.context.logger.warn(`slack: ${detail}`);
      this.health('failed', detail);
    }
  }

  /** Hands a journaled event to the gateway, and delivers what it decided. */
  private async handle(entry: PendingEvent): Promise<void> {
    if (this.inFlight.has(entry.eventId) || !this.me) return;
    this.inFlight.add(entry.eventId);
    const event = entry.event as unknown as SlackEvent & { channel: string; ts: string };
    const finish = (): void => {
      this.journal.done(entry.eventId);
      this.inFlight.delete(entry.eventId);
    };
    if (isOwnMessage(event, this.me)) return finish();
    const files = this.files.inboundFiles(event.files);
    const inbound = { ...inboundOf(event, this.me, this.accountId, entry.teamId), ...(files.length ? { files } : {}) };
    if (!inbound.text.trim() && !files.length) return finish();
    let outcome;
    try {
      outcome = await this.context.inbound(inbound);
    } catch (error) {
      // The gateway could not take it (it is stopping, say): it stays journaled for the next start.
      this.inFlight.delete(entry.eventId);
      this.context.logger.error(`slack account ${this.accountId}: event ${entry.eventId} was not accepted: ${(error as Error).message}`);
      return;
    }
    if (outcome.kind === 'ignored') {
      this.context.logger.debug(`slack account ${this.accountId}: event ${entry.eventId} ignored: ${outcome.reason}`);
      return finish();
    }
    const place = replyPlaceOf(event);
    const reply = new SlackReply(this.web, place, this.pacer, entry.replyTs, (ts) => this.journal.recordReply(entry.eventId, ts));
    const events =
      outcome.kind === 'reply'
        ? outcome.events
        : (async function* () {
            yield { type: 'final' as const, text: outcome.text };
          })();
    const previous = this.chains.get(place.channel) ?? Promise.resolve();
    const delivery = previous
      .then(() => reply.deliver(events, this.abort.signal))
      .then(finish, (error: unknown) => {
        this.context.logger.error(
          `slack: the reply to event ${entry.eventId} in ${place.channel} was not delivered after retries: ${describeSlackError(this.accountId, error)}`,
        );
        finish();
      });
    this.chains.set(place.channel, delivery);
    this.deliveries.add(delivery);
    void delivery.finally(() => {
      this.deliveries.delete(delivery);
      if (this.chains.get(place.channel) === delivery) this.chains.delete(place.channel);
    });
  }

  private health(state: 'connecting' | 'connected' | 'reconnecting' | 'failed' | 'stopped', error?: string): void {
    this.context.setHealth({ accountId: this.accountId, state, ...(error ? { error } : {}) });
  }
}

/**
 * Slack's clients log through this: their warnings and errors (a refused token, a dropped socket) as the plugin's
 * warnings, their chatter not at all (their debug lines echo request bodies).
 */
function libraryLogger(logger: PluginLogger, prefix: string): Logger {
  return {
    debug: () => undefined,
    info: () => undefined,
    warn: (...msg: unknown[]) => logger.warn(`${prefix}: ${msg.map(String).join(' ')}`),
    error: (...msg: unknown[]) => logger.warn(`${prefix}: ${msg.map(String).join(' ')}`),
    setLevel: () => undefined,
    getLevel: () => LogLevel.WARN,
    setName: () => undefined,
  };
}
