import type { ChannelContext, ChannelDefinition, ChannelDeliveryReceipt, ChannelOutboundMessage } from '../../plugin-sdk';
import { HTTP_CHANNEL_ID, httpSectionOf, type HttpSection } from './http-section';
import { postSignedWebhook, type WebhookTransport } from './webhook-client';

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
 * The http channel (docs/channels.md#the-http-channel): an integration whose callers are the accounts of
 * `channels.http.accounts` (`access: "accounts"`), so the DM and group policies do not apply. It runs while
 * `channels.http.enabled` is true; its route (http-route.ts) asks it for the section and the way into the gateway.
 *
 * Outbound: announce results and agent-initiated messages for an http session. With a `webhookUrl` the delivery is
 * POSTed there, signed (webhook-signature.ts); without one the receipt is `stored`, and the gateway keeps it in the
 * session transcript, where the integrator reads it through the admin sessions API. Account and URL come from the
 * section of the moment, never from the delivery, so nothing that reaches a session can choose where the gateway
 * sends requests.
 */
export class HttpChannel implements ChannelDefinition {
  readonly id = HTTP_CHANNEL_ID;
  readonly access = 'accounts' as const;
  private context?: ChannelContext;
  /** The section of the moment: replaced (never mutated) on each change, so per-object token indexes stay valid. */
  private section?: HttpSection;

  start(context: ChannelContext): void {
    this.context = context;
    this.section = httpSectionOf(context.config());
    context.onConfigChange((section) => (this.section = httpSectionOf(section)));
    context.signal.addEventListener('abort', () => this.stop(), { once: true });
  }

  stop(): void {
    this.context = undefined;
    this.section = undefined;
  }

  /** The running channel's context and section while `channels.http.enabled` is true; undefined otherwise. */
  current(): { context: ChannelContext; section: HttpSection } | undefined {
    const { context, section } = this;
    return context && section?.enabled ? { context, section } : undefined;
  }

  async send(message: ChannelOutboundMessage): Promise<ChannelDeliveryReceipt> {
    const receipt = await this.deliver(message);
    if (receipt.status === 'failed') {
      this.context?.logger.warn(`delivery to ${message.sessionKey} (account ${message.accountId}) failed: ${receipt.detail}`);
    }
    return receipt;
  }

  private async deliver(message: ChannelOutboundMessage): Promise<ChannelDeliveryReceipt> {
    const running = this.current();
    // An operator who switched the channel off does not want it to keep calling out.
    if (!running) return failed('channels.http is not enabled');
    const { context, section } = running;
    const accountId = message.accountId;
    const account = Object.prototype.hasOwnProperty.call(section.accounts, accountId) ? section.accounts[accountId] : undefined;
    if (!account) return failed(`http account "${accountId}" is not configured`);
    if (!account.usable || !account.token) return failed(`http account "${accountId}" has no usable token (its variable is unset)`);

    if (!account.webhookUrl) return { status: 'stored' };

    const payload: HttpWebhookPayload = {
      sessionKey: message.sessionKey,
      to: message.peer.id,
      text: message.text,
      ...(message.threadId ? { threadId: message.threadId } : {}),
      ts: new Date().toISOString(),
    };
    const webhook = { url: account.webhookUrl, setting: `channels.http.accounts.${accountId}.webhookUrl` };
    const outcome = await postSignedWebhook(transportOf(context), webhook, JSON.stringify(payload), account.token);
    return outcome.ok ? { status: 'delivered', detail: `webhook answered HTTP ${outcome.status}` } : failed(outcome.reason);
  }
}

/** The context's guarded `request`, in the shape the webhook client calls. */
function transportOf(context: ChannelContext): WebhookTransport {
  return {
    request: ({ kind, destination, method, headers, body, timeoutMs, readBody }) =>
      context.request({ kind, url: destination.url, setting: destination.setting, method, headers, body, timeoutMs, readBody }),
  };
}

function failed(detail: string): ChannelDeliveryReceipt {
  return { status: 'failed', detail };
}
