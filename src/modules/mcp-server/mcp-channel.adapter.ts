import { Inject, Injectable } from '@nestjs/common';
import { ChannelRegistry, StoredDeliveryAdapter } from '../channels';
import { SESSION_STORE, type SessionStore } from '../sessions';
import { MCP_CHANNEL_ID } from './ask-agent.service';

/** Outbound side of the MCP server: its clients only ask, so deliveries are kept in the session's transcript. */
@Injectable()
export class McpChannelAdapter extends StoredDeliveryAdapter {
  readonly id = MCP_CHANNEL_ID;

  constructor(registry: ChannelRegistry, @Inject(SESSION_STORE) sessions: SessionStore) {
    super(registry, sessions);
  }
}
