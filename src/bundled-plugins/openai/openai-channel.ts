import type { ChannelContext, ChannelDefinition, ChannelDeliveryReceipt, PluginEndpointKey } from '../../plugin-sdk';

/** The channel id of this endpoint: session keys `agent:<id>:openai:direct:<user>`, delivery contexts. */
export const OPENAI_CHANNEL_ID = 'openai';

/**
 * `gateway.http.endpoints.chatCompletions` as the channel reads it: the section the core validated and normalized
 * (docs/configuration.md). A key with `usable: false` has its `${VAR}` unset.
 */
export interface ChatCompletionsSettings {
  enabled: boolean;
  rateLimitPerMinute: number;
  keys: PluginEndpointKey[];
}

/** The channel's section: the endpoint's settings, wrapped so the channel runs whether the endpoint is on or not. */
export interface OpenAiChannelSection {
  endpoint: ChatCompletionsSettings;
}

/**
 * The `openai` channel (docs/openai-endpoint.md): an integration whose callers are the keys of
 * `gateway.http.endpoints.chatCompletions` (`access: "accounts"`: no DM or group policy), each turn run for the agent the
 * request names (`runTurn`). It always runs (its route answers 404 while the endpoint is not enabled). Outbound
 * (announce results, agent-initiated messages for an openai session) has nowhere to go: the receipt is `stored`, and
 * the gateway keeps the delivery in the session transcript, where the next request of that conversation finds it.
 */
export class OpenAiChannel implements ChannelDefinition {
  readonly id = OPENAI_CHANNEL_ID;
  readonly access = 'accounts' as const;
  private context?: ChannelContext;
  /** The section of the moment: replaced (never mutated) on each change, so the key gate's index follows it. */
  private section?: ChatCompletionsSettings;

  start(context: ChannelContext): void {
    this.context = context;
    this.section = context.config<OpenAiChannelSection>().endpoint;
    context.onConfigChange<OpenAiChannelSection>((section) => (this.section = section.endpoint));
    context.signal.addEventListener('abort', () => this.stop(), { once: true });
  }

  stop(): void {
    this.context = undefined;
    this.section = undefined;
  }

  /** The running channel's context and section while the endpoint is enabled; undefined otherwise. */
  current(): { context: ChannelContext; section: ChatCompletionsSettings } | undefined {
    const { context, section } = this;
    return context && section?.enabled ? { context, section } : undefined;
  }

  /** The keys the endpoint's gate reads (none while the channel is not running). */
  keys(): ChatCompletionsSettings | { keys: PluginEndpointKey[] } {
    return this.section ?? NO_KEYS;
  }

  send(): Promise<ChannelDeliveryReceipt> {
    return Promise.resolve({ status: 'stored' });
  }
}

const NO_KEYS = { keys: [] as PluginEndpointKey[] };
