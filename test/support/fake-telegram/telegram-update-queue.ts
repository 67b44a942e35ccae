import { jsonParam, optionalInt, TgError } from './telegram-params';
import type { TgUpdate } from './telegram-types';

/** The update kinds a bot gets when it names none in `allowed_updates`. */
export const UPDATE_KINDS = ['message', 'edited_message', 'channel_post'] as const;

interface Poll {
  offset: number;
  limit: number;
  resolve(updates: TgUpdate[]): void;
  reject(error: TgError): void;
  timer: NodeJS.Timeout;
}

/**
 * A bot's pending updates (https://core.telegram.org/bots/api#getting-updates): kept until an offset passes them
 * (or a webhook delivery confirms them), handed out by `getUpdates` at once or by a long poll that waits for one.
 */
export class TelegramUpdateQueue {
  /** Updates not yet confirmed by an offset, oldest first. */
  private pending: TgUpdate[] = [];
  private nextUpdateId = 100_000 + Math.floor(Math.random() * 1000);
  private poll?: Poll;
  private allowedUpdates: string[] = [];

  /** Queues an update; a waiting long poll that wants it is answered. */
  push(body: Omit<TgUpdate, 'update_id'>): void {
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
  }

  /** `getUpdates`: confirms what lies below `offset`, then answers at once or when an update comes or `timeout` ends. */
  getUpdates(params: Record<string, unknown>): Promise<TgUpdate[]> {
    const offset = optionalInt(params.offset, 'offset') ?? 0;
    const limit = Math.min(Math.max(optionalInt(params.limit, 'limit') ?? 100, 1), 100);
    const timeout = Math.max(optionalInt(params.timeout, 'timeout') ?? 0, 0);
    if (params.allowed_updates !== undefined) this.allowedUpdates = jsonParam<string[]>(params.allowed_updates, 'allowed_updates');
    if (offset > 0) this.pending = this.pending.filter((u) => u.update_id >= offset);
    else if (offset < 0) this.pending = this.pending.slice(offset);
    // A second poller ends the first one, as Telegram does for two instances of one bot.
    this.endPoll('Conflict: terminated by other getUpdates request; make sure that only one bot instance is running');
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

  /** Ends a waiting long poll with a 409 Conflict saying why. */
  endPoll(reason: string): void {
    if (!this.poll) return;
    clearTimeout(this.poll.timer);
    this.poll.reject(new TgError(409, reason));
    this.poll = undefined;
  }

  all(): TgUpdate[] {
    return [...this.pending];
  }

  /** The pending updates of these kinds, oldest first. */
  ofKinds(kinds: readonly string[]): TgUpdate[] {
    return this.pending.filter((u) => kinds.some((k) => k in u));
  }

  get size(): number {
    return this.pending.length;
  }

  /** `drop_pending_updates`. */
  drop(): void {
    this.pending = [];
  }

  /** An update a webhook delivery confirmed leaves the queue. */
  confirm(updateId: number): void {
    this.pending = this.pending.filter((u) => u.update_id !== updateId);
  }

  private visible(offset: number, limit: number): TgUpdate[] {
    const kinds = this.allowedUpdates.length ? this.allowedUpdates : UPDATE_KINDS;
    return this.pending.filter((u) => u.update_id >= offset && kinds.some((k) => k in u)).slice(0, limit);
  }
}
