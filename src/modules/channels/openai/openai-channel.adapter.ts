import { Inject, Injectable } from '@nestjs/common';
import { SESSION_STORE, type SessionStore } from '../../sessions';
import { ChannelRegistry } from '../channel-registry';
import { StoredDeliveryAdapter } from '../stored-delivery.adapter';
import { OPENAI_CHANNEL_ID } from './chat-completions.service';

/** Outbound side of the OpenAI-compatible endpoint: deliveries are kept in the session's transcript. */
@Injectable()
export class OpenAiChannelAdapter extends StoredDeliveryAdapter {
  readonly id = OPENAI_CHANNEL_ID;

  constructor(registry: ChannelRegistry, @Inject(SESSION_STORE) sessions: SessionStore) {
    super(registry, sessions);
  }
}
