import type { OnModuleInit } from '@nestjs/common';
import type { SessionStore } from '../sessions';
import type { ChannelAdapter, ChannelDelivery, DeliveryResult } from './channel-adapter.port';
import type { ChannelRegistry } from './channel-registry';

/**
 * The outbound side of a channel whose clients only ever ask (the MCP server; the OpenAI-compatible endpoint's plugin
 * channel answers `stored` to the same effect): nothing can be pushed to them, so a delivery (an announce result) into
 * one of its sessions is kept in the
 * session's transcript, where the next request of that conversation finds it in the agent's history, like an
 * http account without a webhook. Each such channel is a subclass naming its id.
 */
export abstract class StoredDeliveryAdapter implements ChannelAdapter, OnModuleInit {
  abstract readonly id: string;

  constructor(
    private readonly registry: ChannelRegistry,
    private readonly sessions: SessionStore,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async send(delivery: ChannelDelivery): Promise<DeliveryResult> {
    try {
      await this.sessions.append(delivery.sessionKey, {
        role: 'assistant',
        text: delivery.text,
        meta: { delivery: this.id, to: delivery.to },
      });
      return { status: 'stored' };
    } catch (err) {
      return { status: 'failed', detail: `could not store the delivery in the transcript: ${(err as Error).message}` };
    }
  }
}
