import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { SESSION_STORE, type SessionStore } from '../../sessions';
import type { ChannelAdapter, ChannelDelivery, DeliveryResult } from '../channel-adapter.port';
import { ChannelRegistry } from '../channel-registry';
import { OPENAI_CHANNEL_ID } from './chat-completions.service';

/**
 * Outbound side of the OpenAI-compatible endpoint. Its clients only ever ask; nothing can be pushed to them, so a
 * delivery (an announce result) into one of its sessions is kept in the session's transcript, where the next
 * request of that conversation finds it in the agent's history, like an http account without a webhook.
 */
@Injectable()
export class OpenAiChannelAdapter implements ChannelAdapter, OnModuleInit {
  readonly id = OPENAI_CHANNEL_ID;

  constructor(
    private readonly registry: ChannelRegistry,
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async send(delivery: ChannelDelivery): Promise<DeliveryResult> {
    try {
      await this.sessions.append(delivery.sessionKey, {
        role: 'assistant',
        text: delivery.text,
        meta: { delivery: OPENAI_CHANNEL_ID, to: delivery.to },
      });
      return { status: 'stored' };
    } catch (err) {
      return { status: 'failed', detail: `could not store the delivery in the transcript: ${(err as Error).message}` };
    }
  }
}
