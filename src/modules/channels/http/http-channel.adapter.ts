import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ConfigStore } from '../../config';
import { GuardedTransport } from '../../outbound';
import { DEFAULT_ACCOUNT_ID } from '../../routing';
import { SESSION_STORE, type SessionStore } from '../../sessions';
import type { ChannelAdapter, ChannelDelivery, DeliveryResult } from '../channel-adapter.port';
import { ChannelRegistry } from '../channel-registry';
import { postSignedWebhook } from './webhook-client';

export const HTTP_CHANNEL_ID = 'http';

/**
 * The JSON a webhook receives (docs/channels.md#webhook-deliveries); `threadId` is omitted when the
 * conversation has none.
 */
export interface HttpWebhookPayload {
  sessionKey: string;
  to: string;
  text: string;
  threadId?: string;
  /** ISO-8601 time of the delivery; signed with the rest, so receivers can reject stale replays. */
  ts: string;
}

/**
 * Outbound side of the http channel: announce results and agent-initiated messages for an http session.
 * With a `webhookUrl` the delivery is POSTed there, signed (see webhook-signature.ts); without one it is
 * kept in the session transcript, where the integrator reads it through the admin sessions API.
 * Account and URL come from the config snapshot of the moment, never from the delivery, so nothing that
 * reaches a session can choose where the gateway sends requests.
 */
@Injectable()
export class HttpChannelAdapter implements ChannelAdapter, OnModuleInit {
  readonly id = HTTP_CHANNEL_ID;
  private readonly logger = new Logger('channel.http');

  constructor(
    private readonly registry: ChannelRegistry,
    private readonly config: ConfigStore,
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
    private readonly transport: GuardedTransport,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async send(delivery: ChannelDelivery): Promise<DeliveryResult> {
    const result = await this.deliver(delivery);
    if (result.status === 'failed') {
      this.logger.warn(`delivery to ${delivery.sessionKey} (account ${delivery.accountId ?? DEFAULT_ACCOUNT_ID}) failed: ${result.detail}`);
    }
    return result;
  }

  private async deliver(delivery: ChannelDelivery): Promise<DeliveryResult> {
    const http = this.config.current().config.channels.http;
    const accountId = delivery.accountId || DEFAULT_ACCOUNT_ID;
    // An operator who switched the channel off does not want it to keep calling out.
    if (!http.enabled) return failed('channels.http is not enabled');
    const account = Object.prototype.hasOwnProperty.call(http.accounts, accountId) ? http.accounts[accountId] : undefined;
    if (!account) return failed(`http account "${accountId}" is not configured`);
    if (!account.usable || !account.token) return failed(`http account "${accountId}" has no usable token (its variable is unset)`);

    if (!account.webhookUrl) return this.store(delivery);

    const payload: HttpWebhookPayload = {
      sessionKey: delivery.sessionKey,
      to: delivery.to,
      text: delivery.text,
      ...(delivery.threadId ? { threadId: delivery.threadId } : {}),
      ts: new Date().toISOString(),
    };
    const webhook = { url: account.webhookUrl, setting: `channels.http.accounts.${accountId}.webhookUrl` };
    const outcome = await postSignedWebhook(this.transport, webhook, JSON.stringify(payload), account.token);
    return outcome.ok ? { status: 'delivered', detail: `webhook answered HTTP ${outcome.status}` } : failed(outcome.reason);
  }

  /** No webhook: the delivery becomes an assistant line of the session, marked as an http delivery. */
  private async store(delivery: ChannelDelivery): Promise<DeliveryResult> {
    try {
      await this.sessions.append(delivery.sessionKey, {
        role: 'assistant',
        text: delivery.text,
        meta: { delivery: HTTP_CHANNEL_ID, to: delivery.to, ...(delivery.threadId ? { threadId: delivery.threadId } : {}) },
      });
      return { status: 'stored' };
    } catch (err) {
      return failed(`could not store the delivery in the transcript: ${(err as Error).message}`);
    }
  }
}

function failed(detail: string): DeliveryResult {
  return { status: 'failed', detail };
}
