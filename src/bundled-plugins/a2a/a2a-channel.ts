import type { ChannelContext, ChannelDefinition, ChannelDeliveryReceipt } from '../../plugin-sdk';

/** The channel id of A2A sessions (`agent:<id>:a2a:<account>:direct:<peer>:<context>`) and of `channels.a2a`. */
export const A2A_CHANNEL_ID = 'a2a';

/** What an announce into an a2a session is answered with: nothing is pushed to a peer. */
export const A2A_NO_PUSH = 'A2A peers pull results with GetTask; use a2a_send for outbound messages';

/**
 * The `a2a` channel's identity and delivery side (docs/a2a.md#a2a-v10-inbound-channel). The A2A server itself — the
 * Agent Card, the JSON-RPC and HTTP+JSON endpoints under `/a2a`, the task and push stores — is the core's A2A module,
 * which serves while `channels.a2a.enabled` is true and this plugin is active (the config pipeline turns the channel
 * off when the plugin is not). Peers are authenticated by their tokens in that module, so the channel is an
 * `accounts` one: no DM pairing, no group policy.
 *
 * Inbound A2A is pull-based — a peer reads its task with GetTask — so there is nothing to push a delivery to: an
 * announce into an a2a session is answered `failed` instead of pretending it reached the peer. Agent-initiated
 * messages to peers go through the `a2a_send` tool.
 */
export class A2aChannel implements ChannelDefinition {
  readonly id = A2A_CHANNEL_ID;
  readonly access = 'accounts' as const;

  start(context: ChannelContext): void {
    // The endpoint is served by the gateway from now on, for the one account A2A sessions have.
    context.setHealth({ accountId: 'default', state: 'connected' });
  }

  send(): Promise<ChannelDeliveryReceipt> {
    return Promise.resolve({ status: 'failed', detail: A2A_NO_PUSH });
  }
}
