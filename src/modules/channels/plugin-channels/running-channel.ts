import type {
  ChannelAccountHealth,
  ChannelAgentRun,
  ChannelAgentTurn,
  ChannelContext,
  ChannelDefinition,
  ChannelInboundMessage,
  ChannelInboundOutcome,
  ChannelOutboundMessage,
  ChannelDeliveryReceipt,
  ChannelHttpRequest,
  ChannelHttpResponse,
} from '../../../plugin-sdk';
import { isRecord } from '../../../common/is-record';
import { messageOf, withDeadline, type PluginChannelOwner } from '../../plugins';
import { restartDelay } from './channel-backoff';
import type { InboundObserver } from './channel-inbound';

/** `stopped`: not configured, `enabled: false`, or its plugin unloading; `failed`: `start` threw (a restart is due). */
export type ChannelState = 'starting' | 'running' | 'failed' | 'stopped';

export interface AccountStats {
  messagesIn: number;
  messagesOut: number;
  deliveryFailures: number;
  reconnects: number;
  lastIgnored?: string;
}

/** What a running channel needs of the gateway. */
export interface ChannelEnvironment {
  inbound(
    channel: string,
    section: Record<string, unknown>,
    message: ChannelInboundMessage,
    observer: InboundObserver,
    access: 'policy' | 'accounts',
  ): Promise<ChannelInboundOutcome>;
  /** A turn for the agent an `accounts` channel's caller named (channel-turns.ts). */
  turn(channel: string, turn: ChannelAgentTurn): ChannelAgentRun;
  /** A call out through the gateway's transport guard, on behalf of the channel. */
  request(channel: string, request: ChannelHttpRequest): Promise<ChannelHttpResponse>;
  startDeadlineMs: number;
  stopDeadlineMs: number;
  metrics: {
    message(channel: string, account: string, direction: 'in' | 'out'): void;
    deliveryFailure(channel: string, account: string): void;
    reconnect(channel: string, account: string): void;
  };
}

const RECEIPT_STATES: ReadonlySet<string> = new Set(['delivered', 'failed', 'stored']);
const HEALTH_STATES: ReadonlySet<string> = new Set(['connecting', 'connected', 'reconnecting', 'failed', 'stopped']);

/**
 * One chat channel a plugin registered, and its life (docs/plugins.md#channels): started once its section is
 * configured and not `enabled: false`; a `start` that throws (or overruns its deadline) leaves it `failed` with the
 * error and schedules a restart with backoff; a changed section reaches its `onConfigChange` listeners; removed or
 * switched off, it is stopped under the stop deadline and its signal aborted. Counts what goes in and out, per account.
 */
export class RunningChannel {
  state: ChannelState = 'stopped';
  error?: string;
  failures = 0;
  /** Restarts after a failed start. */
  restarts = 0;
  readonly health = new Map<string, ChannelAccountHealth>();
  readonly stats = new Map<string, AccountStats>();
  private section?: Record<string, unknown>;
  private listeners: Array<(config: Record<string, unknown>) => void> = [];
  private abort?: AbortController;
  private restartTimer?: NodeJS.Timeout;
  /** Start/stop one after the other. */
  private queue: Promise<void> = Promise.resolve();
  private removed = false;

  constructor(
    readonly definition: ChannelDefinition,
    readonly owner: PluginChannelOwner,
    private readonly env: ChannelEnvironment,
    section: Record<string, unknown> | undefined,
  ) {
    this.section = section;
  }

  get id(): string {
    return this.definition.id;
  }

  /** The section as configured now (undefined: not configured). */
  get config(): Record<string, unknown> | undefined {
    return this.section;
  }

  get enabled(): boolean {
    return !!this.section && this.section.enabled !== false;
  }

  /** Starts it when its section says so. */
  begin(): Promise<void> {
    return this.enqueue(() => (this.enabled ? this.start() : Promise.resolve()));
  }

  configure(section: Record<string, unknown> | undefined): Promise<void> {
    return this.enqueue(async () => {
      this.section = section;
      if (!this.enabled) {
        await this.stop();
        return;
      }
      if (this.state === 'stopped') {
        await this.start();
        return;
      }
      if (this.state === 'failed') {
        // A new config is a new chance: restart now rather than after the backoff.
        clearTimeout(this.restartTimer);
        await this.start();
        return;
      }
      for (const listener of this.listeners) {
        try {
          listener(structuredClone(section!));
        } catch (err) {
          this.owner.logger.error(`channel ${this.id}: config change listener threw: ${messageOf(err)}`);
        }
      }
    });
  }

  remove(): Promise<void> {
    this.removed = true;
    return this.enqueue(() => this.stop());
  }

  /** Says what the gateway initiated (an announce, a sessions_send result) on the platform. */
  async send(message: ChannelOutboundMessage): Promise<ChannelDeliveryReceipt> {
    if (this.state !== 'running')
      return { status: 'failed', detail: `channel ${this.id} is ${this.state}${this.error ? `: ${this.error}` : ''}` };
    let receipt: ChannelDeliveryReceipt;
    try {
      receipt = await this.definition.send(message);
      if (!receipt || !RECEIPT_STATES.has(receipt.status)) receipt = { status: 'failed', detail: 'send() returned no receipt' };
    } catch (err) {
      receipt = { status: 'failed', detail: `send() threw: ${messageOf(err)}` };
    }
    if (receipt.status === 'delivered') this.countOut(message.accountId);
    else if (receipt.status === 'failed') this.countFailure(message.accountId);
    return receipt;
  }

  /** Counts a reply the plugin sent for an inbound message (it settles on `final`). */
  countOut(accountId: string): void {
    this.statsOf(accountId).messagesOut++;
    this.env.metrics.message(this.id, this.accountLabel(accountId), 'out');
  }

  countFailure(accountId: string): void {
    this.statsOf(accountId).deliveryFailures++;
    this.env.metrics.deliveryFailure(this.id, this.accountLabel(accountId));
  }

  statsOf(accountId: string): AccountStats {
    let stats = this.stats.get(accountId);
    if (!stats) this.stats.set(accountId, (stats = { messagesIn: 0, messagesOut: 0, deliveryFailures: 0, reconnects: 0 }));
    return stats;
  }

  /** The account as a metric label: one the section names, or `default`; anything else is `other`. */
  accountLabel(accountId: string): string {
    if (accountId === 'default') return accountId;
    const accounts = this.section && isRecord(this.section.accounts) ? this.section.accounts : {};
    return Object.prototype.hasOwnProperty.call(accounts, accountId) ? accountId : 'other';
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(work, work);
    return this.queue;
  }

  private async start(): Promise<void> {
    if (this.removed) return;
    this.abort = new AbortController();
    this.listeners = [];
    this.state = 'starting';
    this.error = undefined;
    try {
      await withDeadline(
        Promise.resolve().then(() => this.definition.start(this.context(this.abort!.signal))),
        this.env.startDeadlineMs,
        'start()',
      );
      if (this.abort.signal.aborted) return;
      this.state = 'running';
      this.failures = 0;
      this.owner.logger.info(`channel ${this.id} started`);
    } catch (err) {
      await this.halt();
      this.failures++;
      this.state = 'failed';
      this.error = messageOf(err);
      const delay = restartDelay(this.failures);
      this.owner.logger.error(`channel ${this.id} failed: ${this.error}; restarting in ${delay} ms`);
      this.restartTimer = setTimeout(() => {
        void this.enqueue(async () => {
          if (this.state !== 'failed' || !this.enabled || this.removed) return;
          // The whole channel restarts, not one account: the series' account is "*".
          this.env.metrics.reconnect(this.id, '*');
          this.restarts++;
          await this.start();
        });
      }, delay);
      this.restartTimer.unref();
    }
  }

  private async stop(): Promise<void> {
    clearTimeout(this.restartTimer);
    if (this.state === 'stopped') return;
    await this.halt();
    this.state = 'stopped';
    this.error = undefined;
    for (const [accountId, health] of this.health) this.health.set(accountId, { ...health, state: 'stopped', error: undefined });
  }

  /** Aborts the channel's signal and calls its `stop` under the deadline (a stop that throws is logged). */
  private async halt(): Promise<void> {
    this.abort?.abort();
    try {
      await withDeadline(
        Promise.resolve().then(() => this.definition.stop?.()),
        this.env.stopDeadlineMs,
        'stop()',
      );
    } catch (err) {
      this.owner.logger.warn(`channel ${this.id}: ${messageOf(err)}`);
    }
  }

  private context(signal: AbortSignal): ChannelContext {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the context's getters read the channel
    const channel = this;
    const observer: InboundObserver = {
      received: (accountId) => {
        channel.statsOf(accountId).messagesIn++;
        channel.env.metrics.message(channel.id, channel.accountLabel(accountId), 'in');
      },
      outcome: (accountId, kind, reason) => {
        if (kind === 'ignored') channel.statsOf(accountId).lastIgnored = reason;
      },
      replied: (accountId, ok) => {
        if (ok) channel.countOut(accountId);
      },
    };
    return Object.freeze({
      channelId: this.id,
      config: <C>() => structuredClone(channel.section ?? {}) as C,
      onConfigChange: <C>(listener: (config: C) => void) => {
        if (typeof listener !== 'function') throw new TypeError('onConfigChange(listener): listener must be a function');
        channel.listeners.push(listener as (config: Record<string, unknown>) => void);
      },
      inbound: async (message: ChannelInboundMessage) => {
        if (signal.aborted || channel.state === 'stopped') throw new Error(`channel ${channel.id} is stopped`);
        return channel.env.inbound(channel.id, channel.section ?? {}, message, observer, channel.definition.access ?? 'policy');
      },
      runTurn: (turn: ChannelAgentTurn) => {
        if ((channel.definition.access ?? 'policy') !== 'accounts')
          throw new Error(`runTurn: channel ${channel.id} is not an "accounts" channel; its messages go through inbound()`);
        if (signal.aborted || channel.state === 'stopped') throw new Error(`channel ${channel.id} is stopped`);
        return channel.env.turn(channel.id, turn);
      },
      request: (request: ChannelHttpRequest) => channel.env.request(channel.id, request),
      setHealth: (health: ChannelAccountHealth) => channel.setHealth(health),
      reportDeliveryFailure: (accountId: string, detail: string) => {
        if (typeof accountId !== 'string' || !accountId)
          throw new TypeError('reportDeliveryFailure(accountId): accountId must be a non-empty string');
        channel.countFailure(accountId);
        channel.owner.logger.debug(`channel ${channel.id}: a reply of account ${accountId} was not delivered: ${String(detail)}`);
      },
      logger: this.owner.logger,
      get stateDir() {
        return channel.owner.stateDir();
      },
      signal,
    });
  }

  private setHealth(health: ChannelAccountHealth): void {
    if (!isRecord(health) || typeof health.accountId !== 'string' || !health.accountId || !HEALTH_STATES.has(health.state)) {
      throw new TypeError(`setHealth(health): accountId must be a non-empty string and state one of ${[...HEALTH_STATES].join(', ')}`);
    }
    const before = this.health.get(health.accountId);
    if (health.state === 'reconnecting' && before?.state !== 'reconnecting') {
      this.statsOf(health.accountId).reconnects++;
      this.env.metrics.reconnect(this.id, this.accountLabel(health.accountId));
    }
    this.health.set(health.accountId, {
      accountId: health.accountId,
      state: health.state,
      ...(typeof health.error === 'string' ? { error: health.error } : {}),
    });
  }
}
