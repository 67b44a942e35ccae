import type { ChannelPeerKind } from '../../../plugin-sdk';
import { DEFAULT_ACCOUNT_ID } from '../../routing';
import { parseSessionKey } from '../../sessions';
import type { ChannelAdapter, ChannelDelivery, DeliveryResult } from '../channel-adapter.port';
import type { RunningChannel } from './running-channel';

/**
 * A plugin's channel in the ChannelRegistry: announces and `sessions_send` results for a session of the channel reach
 * its `send`. The peer's kind is read from the session key (a group or channel session says so; anything else is the
 * direct chat of `to`).
 */
export class PluginChannelAdapter implements ChannelAdapter {
  constructor(private readonly channel: RunningChannel) {}

  get id(): string {
    return this.channel.id;
  }

  async send(delivery: ChannelDelivery): Promise<DeliveryResult> {
    const parsed = parseSessionKey(delivery.sessionKey);
    const kind: ChannelPeerKind = parsed?.kind === 'group' || parsed?.kind === 'channel' ? parsed.kind : 'dm';
    const receipt = await this.channel.send({
      accountId: delivery.accountId || DEFAULT_ACCOUNT_ID,
      peer: { kind, id: delivery.to },
      ...(delivery.threadId ? { threadId: delivery.threadId } : {}),
      text: delivery.text,
    });
    return receipt.status === 'delivered'
      ? { status: 'delivered', ...(receipt.messageId ? { detail: `message ${receipt.messageId}` } : {}) }
      : { status: 'failed', detail: receipt.detail ?? 'the platform did not accept it' };
  }
}
