import type { ChannelPeerKind } from '../../../plugin-sdk';
import { DEFAULT_ACCOUNT_ID } from '../../routing';
import { parseSessionKey, type SessionStore } from '../../sessions';
import type { ChannelAdapter, ChannelDelivery, DeliveryResult } from '../channel-adapter.port';
import type { RunningChannel } from './running-channel';

/**
 * A plugin's channel in the ChannelRegistry: announces and `sessions_send` results for a session of the channel reach
 * its `send`. The peer's kind is read from the session key (a group or channel session says so; anything else is the
 * direct chat of `to`). A `stored` receipt (the channel cannot push it) keeps the delivery in the session's
 * transcript, as an assistant line marked with the channel.
 */
export class PluginChannelAdapter implements ChannelAdapter {
  constructor(
    private readonly channel: RunningChannel,
    private readonly sessions: Pick<SessionStore, 'append'>,
  ) {}

  get id(): string {
    return this.channel.id;
  }

  async send(delivery: ChannelDelivery): Promise<DeliveryResult> {
    const parsed = parseSessionKey(delivery.sessionKey);
    const kind: ChannelPeerKind = parsed?.kind === 'group' || parsed?.kind === 'channel' ? parsed.kind : 'dm';
    const receipt = await this.channel.send({
      sessionKey: delivery.sessionKey,
      accountId: delivery.accountId || DEFAULT_ACCOUNT_ID,
      peer: { kind, id: delivery.to },
      ...(delivery.threadId ? { threadId: delivery.threadId } : {}),
      text: delivery.text,
    });
    if (receipt.status === 'stored') return this.store(delivery);
    if (receipt.status === 'failed') return { status: 'failed', detail: receipt.detail ?? 'the platform did not accept it' };
    const detail = receipt.detail ?? (receipt.messageId ? `message ${receipt.messageId}` : undefined);
    return { status: 'delivered', ...(detail ? { detail } : {}) };
  }

  private async store(delivery: ChannelDelivery): Promise<DeliveryResult> {
    try {
      await this.sessions.append(delivery.sessionKey, {
        role: 'assistant',
        text: delivery.text,
        meta: { delivery: this.id, to: delivery.to, ...(delivery.threadId ? { threadId: delivery.threadId } : {}) },
      });
      return { status: 'stored' };
    } catch (err) {
      return { status: 'failed', detail: `could not store the delivery in the transcript: ${(err as Error).message}` };
    }
  }
}
