import { Injectable, OnModuleInit } from '@nestjs/common';
import { ChannelRegistry, type ChannelAdapter, type DeliveryResult } from '../channels';
import { A2A_CHANNEL_ID, A2A_MESSAGES } from './protocol/limits-and-messages';

/**
 * The `a2a` channel in the ChannelRegistry. Inbound A2A is pull-based — a peer reads its task with GetTask —
 * so there is nothing to push a delivery to: an announce into an a2a session reports `failed` instead of
 * pretending it reached the peer. Agent-initiated messages to peers go through `a2a_send` (outbound).
 */
@Injectable()
export class A2aChannelAdapter implements ChannelAdapter, OnModuleInit {
  readonly id = A2A_CHANNEL_ID;

  constructor(private readonly registry: ChannelRegistry) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  send(): Promise<DeliveryResult> {
    return Promise.resolve({ status: 'failed', detail: A2A_MESSAGES.channelAdapterSend });
  }
}
