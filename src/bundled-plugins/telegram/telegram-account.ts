import * as path from 'node:path';
import { Bot, type Api } from 'grammy';
import type { Update, UserFromGetMe } from 'grammy/types';
import type { ChannelContext, ChannelDeliveryReceipt, ChannelOutboundMessage } from '../../plugin-sdk';
import { ChatPacer, sleep, splitMarkdown } from '../chat-kit';
import { floodWait } from './flood-wait';
import type { TelegramAccountConfig } from './telegram-config';
import { describeTelegramError, isUnauthorized } from './telegram-errors';
import { TelegramFiles } from './telegram-files';
import { inboundOf, isOwnMessage, messageOf, replyTargetOf } from './telegram-inbound';
import { TELEGRAM_TEXT_LIMIT, TelegramReply } from './telegram-reply';
import { UpdateJournal, type PendingUpdate } from './update-journal';
import { markdownToTelegramHtml } from './markdown-html';

export interface TelegramAccountOptions {
  /** Seconds a `getUpdates` long poll waits (default 25). */
  pollTimeoutSeconds?: number;
  /** Milliseconds between two writes in one chat (default 1000). */
  chatIntervalMs?: number;
  /** Opens the account's update journal (default `UpdateJournal.open`; a test hands one whose disk fails). */
  openJournal?: (file: string) => UpdateJournal;
}

const UPDATE_KINDS = ['message', 'channel_post'] as const;

/** grammY types its signal with the abort-controller package's class; Node's own is the same at run time. */
type GrammySignal = NonNullable<Parameters<Api['getMe']>[0]>;

/** What a webhook post is answered with: Telegram posts again after anything but a 2xx. */
export type WebhookAnswer = { status: 200 } | { status: 400 | 503; error: string };

/**
 * One bot: its grammY `Bot` (pointed at `apiRoot`, with 429s waited out), the durable update journal fed by the
 * long-polling loop or, in webhook mode, by the posts the plugin's route hands to `receiveWebhook`, and the replies
 * in flight. Updates are handled in order, each handed to the gateway once the previous one was decided; replies then
 * stream side by side (one after the other within a chat).
 */
export class TelegramAccount {
  private readonly bot: Bot;
  private readonly files: TelegramFiles;
  private readonly journal: UpdateJournal;
  private readonly pacer: ChatPacer;
  private readonly abort = new AbortController();
  private readonly inFlight = new Set<number>();
  private readonly chatChains = new Map<number, Promise<void>>();
  private readonly deliveries = new Set<Promise<void>>();
  private loop?: Promise<void>;
  /** Webhook mode: the handling of what the posts brought, one pass after the other (as the polling loop does). */
  private pump: Promise<void> = Promise.resolve();
  private pumpFailures = 0;
  private me?: UserFromGetMe;
  private webhookSet = false;

  constructor(
    readonly config: TelegramAccountConfig,
    private readonly context: ChannelContext,
    private readonly options: TelegramAccountOptions = {},
  ) {
    this.bot = new Bot(config.botToken, { client: { apiRoot: config.apiRoot } });
    this.bot.api.config.use(
      floodWait({
        onRetry: (method, reason, waitMs) =>
          context.logger.warn(`telegram account ${config.accountId}: ${method} retried in ${waitMs} ms (${reason})`),
      }),
    );
    this.files = new TelegramFiles(this.bot.api, config, context);
    this.pacer = new ChatPacer(options.chatIntervalMs ?? 1000);
    this.journal = (options.openJournal ?? UpdateJournal.open)(
      path.join(context.stateDir, 'accounts', encodeURIComponent(config.accountId), 'updates.json'),
    );
  }

  get accountId(): string {
    return this.config.accountId;
  }

  start(): void {
    // The channel's signal ends the account too: a poller must not outlive its channel (a 409 Conflict with the next).
    if (this.context.signal.aborted) return;
    this.context.signal.addEventListener('abort', () => this.abort.abort(), { once: true });
    this.health('connecting');
    this.loop = this.config.webhook ? this.listen() : this.poll();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
    await this.pump;
    await Promise.allSettled([...this.deliveries]);
    this.health('stopped');
  }

  /**
   * Says something the gateway initiated: in pieces within Telegram's limit, each retried by the transformer, then
   * its files one message each (sendPhoto or sendDocument).
   */
  async send(message: ChannelOutboundMessage): Promise<ChannelDeliveryReceipt> {
    const chatId = Number(message.peer.id);
    if (!Number.isFinite(chatId) && !message.peer.id.startsWith('@')) {
      return { status: 'failed', detail: `account ${this.accountId}: "${message.peer.id}" is not a Telegram chat id` };
    }
    const threadId = message.threadId !== undefined ? Number(message.threadId) : undefined;
    const replyTo = message.replyToId !== undefined ? Number(message.replyToId) : undefined;
    let firstId: number | undefined;
    try {
      // Files alone: no empty text message before them (Telegram refuses one).
      const pieces = message.text.trim() || !message.files?.length ? splitMarkdown(message.text, TELEGRAM_TEXT_LIMIT) : [];
      for (const [index, piece] of pieces.entries()) {
        const target = Number.isFinite(chatId) ? chatId : message.peer.id;
        await this.pacer.turn(typeof target === 'number' ? target : 0, this.abort.signal);
        const sent = await this.bot.api.sendMessage(target, markdownToTelegramHtml(piece), {
          parse_mode: 'HTML',
          ...(threadId !== undefined && Number.isFinite(threadId) ? { message_thread_id: threadId } : {}),
          ...(index === 0 && replyTo !== undefined && Number.isFinite(replyTo)
            ? { reply_parameters: { message_id: replyTo, allow_sending_without_reply: true } }
            : {}),
        });
        firstId ??= sent.message_id;
      }
      for (const file of message.files ?? []) {
        const target = Number.isFinite(chatId) ? chatId : message.peer.id;
        await this.pacer.turn(typeof target === 'number' ? target : 0, this.abort.signal);
        const id = await this.files.upload(
          target,
          file,
          threadId !== undefined && Number.isFinite(threadId) ? { message_thread_id: threadId } : {},
        );
        firstId ??= id;
      }
      return { status: 'delivered', ...(firstId !== undefined ? { messageId: String(firstId) } : {}) };
    } catch (error) {
      const detail = describeTelegramError(this.accountId, error);
      this.context.logger.error(`telegram: a message to chat ${message.peer.id} was not delivered: ${detail}`);
      return { status: 'failed', detail };
    }
  }

  /**
   * A webhook post's update (the route checked its secret): journaled — durably, before the post is answered, so an
   * update Telegram was told arrived is never lost — then handled in turn. A redelivery (its answer was lost) is
   * answered 200 and nothing else. Until the bot is known and its webhook set, 503: Telegram posts again later.
   */
  receiveWebhook(body: unknown): WebhookAnswer {
    if (!this.me || !this.webhookSet || this.abort.signal.aborted) {
      return { status: 503, error: `telegram account ${this.accountId} is not receiving yet` };
    }
    const updateId = (body as { update_id?: unknown } | null)?.update_id;
    if (typeof body !== 'object' || body === null || !Number.isSafeInteger(updateId)) {
      return { status: 400, error: 'the body must be a Telegram Update (a JSON object with an integer update_id)' };
    }
    if (!this.journal.receive(body as Update)) {
      this.context.logger.debug(
        `telegram account ${this.accountId}: update ${String(updateId)} was delivered again; answered once already`,
      );
      return { status: 200 };
    }
    this.handleInTurn();
    return { status: 200 };
  }

  /** Long polling: the bot's webhook removed, then `getUpdates` in a loop, each batch journaled before the next offset. */
  private poll(): Promise<void> {
    return this.connected(
      // Long polling and a webhook exclude each other; pending updates stay queued.
      (signal) => this.bot.api.deleteWebhook({ drop_pending_updates: false }, signal).then(() => undefined),
      async (signal) => {
        await this.handlePending();
        const updates = await this.bot.api.getUpdates(
          { offset: this.journal.offset, timeout: this.options.pollTimeoutSeconds ?? 25, allowed_updates: [...UPDATE_KINDS] },
          signal,
        );
        this.journal.accept(updates);
      },
    );
  }

  /**
   * Webhook mode: `setWebhook` with the account's URL and secret (updates then come to `receiveWebhook`), and the
   * updates a previous run journaled and did not answer handled. One connection, so that updates come in order.
   */
  private listen(): Promise<void> {
    const webhook = this.config.webhook!;
    return this.connected(async (signal) => {
      await this.bot.api.setWebhook(
        webhook.url,
        { secret_token: webhook.secret, allowed_updates: [...UPDATE_KINDS], max_connections: 1, drop_pending_updates: false },
        signal,
      );
      this.webhookSet = true;
      this.handleInTurn();
    });
  }

  /**
   * Webhook mode: the journal's updates handled after the pass under way. A pass that fails (the gateway did not take
   * an update) leaves them journaled and is tried again after a growing pause, as the polling loop would.
   */
  private handleInTurn(): void {
    this.pump = this.pump
      .then(() => this.handlePending())
      .then(
        () => void (this.pumpFailures = 0),
        async (error: unknown) => {
          this.pumpFailures++;
          this.context.logger.warn(`telegram: ${describeTelegramError(this.accountId, error)}`);
          await sleep(Math.min(1000 * 2 ** Math.min(this.pumpFailures - 1, 5), 30_000), this.abort.signal);
          if (!this.abort.signal.aborted) this.handleInTurn();
        },
      );
  }

  /**
   * Connects (getMe, the journal bound to the bot, then `prepare`), then runs `step` until the account stops; any
   * failure is reported in the health (a rejected token as failed) and retried with a growing pause.
   */
  private async connected(prepare: (signal: GrammySignal) => Promise<void>, step?: (signal: GrammySignal) => Promise<void>): Promise<void> {
    const signal = this.abort.signal;
    const apiSignal = signal as unknown as GrammySignal;
    let failures = 0;
    let prepared = false;
    while (!signal.aborted) {
      try {
        if (!this.me) {
          this.me = await this.bot.api.getMe(apiSignal);
          this.journal.bindBot(this.me.id);
          prepared = false;
        }
        if (!prepared) {
          await prepare(apiSignal);
          prepared = true;
          this.health('connected');
        }
        if (!step) return;
        await step(apiSignal);
        if (failures) this.health('connected');
        failures = 0;
      } catch (error) {
        if (signal.aborted) break;
        failures++;
        const detail = describeTelegramError(this.accountId, error);
        if (isUnauthorized(error)) {
          this.me = undefined;
          this.health('failed', detail);
        } else {
          this.health('reconnecting', detail);
        }
        this.context.logger.warn(`telegram: ${detail}`);
        await sleep(Math.min(1000 * 2 ** Math.min(failures - 1, 5), 30_000), signal);
      }
    }
  }

  /** Each journaled update not yet being handled, in order: decided by the gateway, its reply then under way. */
  private async handlePending(): Promise<void> {
    for (const entry of [...this.journal.pending()]) {
      if (this.abort.signal.aborted) return;
      if (this.inFlight.has(entry.update.update_id)) continue;
      this.inFlight.add(entry.update.update_id);
      await this.handle(entry);
    }
  }

  private async handle(entry: PendingUpdate): Promise<void> {
    const updateId = entry.update.update_id;
    const message = messageOf(entry.update);
    const finish = (): void => {
      this.inFlight.delete(updateId);
      try {
        this.journal.done(updateId);
      } catch (error) {
        // The disk refused the write (ENOSPC, EACCES): the update stays on disk and a restart resumes its reply by
        // editing the messages already recorded, so nothing repeats; this process goes on answering.
        this.context.logger.error(
          `telegram account ${this.accountId}: update ${updateId} was answered but the journal could not record it: ${(error as Error).message}`,
        );
      }
    };
    if (!message || !this.me || isOwnMessage(message, this.me)) return finish();
    const files = this.files.inboundFiles(message);
    const inbound = { ...inboundOf(message, this.me, this.accountId), ...(files.length ? { files } : {}) };
    if (!inbound.text.trim() && !files.length) return finish();
    let outcome;
    try {
      outcome = await this.context.inbound(inbound);
    } catch (error) {
      // The gateway could not take it (it is stopping, say): it stays in the journal for the next start.
      this.inFlight.delete(updateId);
      this.context.logger.error(`telegram account ${this.accountId}: update ${updateId} was not accepted: ${(error as Error).message}`);
      throw error;
    }
    if (outcome.kind === 'ignored') {
      this.context.logger.debug(`telegram account ${this.accountId}: update ${updateId} ignored: ${outcome.reason}`);
      return finish();
    }
    const target = replyTargetOf(message);
    // A reply whose send was cut short by a crash looks for the message it may have sent (see TelegramReply).
    const probeFrom = entry.sending
      ? Math.max(this.journal.lastSentIn(target.chatId), target.replyTo, ...entry.replyMessageIds) + 1
      : undefined;
    const reply = new TelegramReply(
      this.bot.api,
      target,
      this.pacer,
      entry.replyMessageIds,
      {
        sending: () => this.journal.markSending(updateId),
        sent: (ids) => this.journal.recordReply(updateId, target.chatId, ids),
      },
      probeFrom,
    );
    const events =
      outcome.kind === 'reply'
        ? outcome.events
        : (async function* () {
            yield { type: 'final' as const, text: outcome.text };
          })();
    // Replies in one chat go out in the order the messages came; other chats' do not wait for them. The chain never
    // rejects (finish catches), and whatever the previous reply came to, this one is still delivered.
    const previous = this.chatChains.get(target.chatId) ?? Promise.resolve();
    const delivery = previous
      .catch(() => undefined)
      .then(() => reply.deliver(events, this.abort.signal))
      .then(
        (delivered) => {
          if (delivered === 'answered') return finish();
          // Not answered because the gateway is shutting down: it stays in the journal (and out of this process's
          // hands) and is answered after the restart, editing whatever part of the reply was already sent.
          this.context.logger.info(
            `telegram account ${this.accountId}: update ${updateId} is kept for the next start (the gateway is shutting down)`,
          );
        },
        (error: unknown) => {
          const detail = describeTelegramError(this.accountId, error);
          if (this.abort.signal.aborted) {
            // Cut short by the account's stop: kept, and resumed after the next start.
            this.context.logger.warn(
              `telegram: the reply to update ${updateId} in chat ${target.chatId} was cut short by the stop (${detail}); kept for the next start`,
            );
            return;
          }
          this.context.logger.error(
            `telegram: the reply to update ${updateId} in chat ${target.chatId} was not delivered after retries: ${detail}`,
          );
          // Shown, not dropped silently: the account's delivery failures (status, metrics) count it.
          this.context.reportDeliveryFailure?.(this.accountId, detail);
          finish();
        },
      );
    this.chatChains.set(target.chatId, delivery);
    this.deliveries.add(delivery);
    void delivery.finally(() => {
      this.deliveries.delete(delivery);
      if (this.chatChains.get(target.chatId) === delivery) this.chatChains.delete(target.chatId);
    });
  }

  private health(state: 'connecting' | 'connected' | 'reconnecting' | 'failed' | 'stopped', error?: string): void {
    this.context.setHealth({ accountId: this.accountId, state, ...(error ? { error } : {}) });
  }
}
