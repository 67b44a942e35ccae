/**
 * The ChannelAdapter port. A channel brings messages in (its own HTTP routes, routed through
 * bindings and run by the runtime) and carries deliveries out: announce results and agent-initiated
 * messages go to a session's delivery context through `send`. See docs/channels.md#channel-adapters.
 */
export interface ChannelDelivery {
  /** The session the delivery belongs to. */
  sessionKey: string;
  /** Recipient within the channel (a peer id). */
  to: string;
  text: string;
  accountId?: string;
  threadId?: string;
}

export interface DeliveryResult {
  /** `delivered`: handed to the channel; `stored`: kept in the transcript (e.g. no webhook configured). */
  status: 'delivered' | 'stored' | 'failed';
  detail?: string;
}

export interface ChannelAdapter {
  /** The channel id used in bindings and delivery contexts (`http`, `a2a`, ...). */
  readonly id: string;
  send(delivery: ChannelDelivery): Promise<DeliveryResult>;
}
