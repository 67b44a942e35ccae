import { Inject, Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { ApprovalGate } from '../../approvals';
import { ConfigStore, GATEWAY_OPTIONS, type GatewayOptions } from '../../config';
import type { ChannelDefinition, ChannelHttpRequest, ChannelHttpResponse, ChannelOutboundMessage } from '../../../plugin-sdk';
import { GatewayMetrics } from '../../metrics';
import { GuardedTransport } from '../../outbound';
import {
  PLUGIN_START_DEADLINE_MS,
  PLUGIN_STOP_DEADLINE_MS,
  PluginHost,
  type PluginChannelOwner,
  type PluginChannelRunner,
} from '../../plugins';
import { RoutingService } from '../../routing';
import { AgentRunner } from '../../runtime';
import { SESSION_STORE, type SessionStore } from '../../sessions';
import { ChannelRegistry } from '../channel-registry';
import { PAIRING_STORE, type PairingStore } from '../pairing/pairing-store.port';
import { ChannelInbound } from './channel-inbound';
import { ChannelTurns } from './channel-turns';
import { ChatApprovals } from './chat-approvals';
import { PluginChannelAdapter } from './plugin-channel.adapter';
import { RunningChannel, type ChannelEnvironment } from './running-channel';

/** The A2A channel's id (the a2a-channel module sits above this one, so it is named here). */
const A2A_CHANNEL = 'a2a';

/**
 * Runs the chat channels plugins register (docs/plugins.md#channels): attached to the plugin host, it takes each
 * channel once its plugin is active, starts it when `channels.<id>` is configured and not `enabled: false`, follows
 * the section through every applied config, puts it in the ChannelRegistry (so announces and `sessions_send` results
 * reach its `send`), and gives its `inbound` the gateway's one pipeline (ChannelInbound).
 */
@Injectable()
export class PluginChannels implements PluginChannelRunner, OnModuleInit {
  private readonly channels = new Map<string, RunningChannel>();
  private readonly inbound: ChannelInbound;
  private readonly env: ChannelEnvironment;
  /** Tool approvals posted to, and decided from, the chat the work came from (absent without the approvals module). */
  private readonly approvals?: ChatApprovals;

  constructor(
    private readonly host: PluginHost,
    private readonly registry: ChannelRegistry,
    routing: RoutingService,
    @Inject(AgentRunner) runner: AgentRunner,
    @Inject(PAIRING_STORE) readonly pairing: PairingStore,
    metrics: GatewayMetrics,
    private readonly transport: GuardedTransport,
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
    @Inject(GATEWAY_OPTIONS) options: Pick<GatewayOptions, 'stateDir'>,
    @Optional() config?: ConfigStore,
    @Optional() gate?: ApprovalGate,
  ) {
    if (gate && config) {
      const chats = {
        // An A2A task's approvals are the A2A module's (the task waits INPUT_REQUIRED and is resumed by it): the a2a
        // channel is no chat to post them to, though its plugin runs it (docs/approvals.md#a2a-tasks).
        adapter: (id: string) => (id !== A2A_CHANNEL && this.channels.has(id) ? this.registry.get(id) : undefined),
        send: (id: string, message: ChannelOutboundMessage) => this.channels.get(id)?.send(message),
      };
      this.approvals = new ChatApprovals(gate, config, sessions, chats);
    }
    const commands = this.approvals;
    this.inbound = new ChannelInbound(
      routing,
      runner,
      pairing,
      options.stateDir,
      commands && ((channel, message) => commands.command(channel, message)),
    );
    const turns = config ? new ChannelTurns(config, runner) : undefined;
    this.env = {
      inbound: (channel, section, message, observer, access) => this.inbound.handle(channel, section, message, observer, access),
      turn: (channel, turn) => {
        if (!turns) throw new Error('runTurn: this gateway has no config store');
        return turns.run(channel, turn);
      },
      request: (channel, request) => this.request(channel, request),
      startDeadlineMs: PLUGIN_START_DEADLINE_MS,
      stopDeadlineMs: PLUGIN_STOP_DEADLINE_MS,
      metrics: {
        message: (channel, account, direction) => metrics.channelMessage(channel, account, direction),
        deliveryFailure: (channel, account) => metrics.channelDeliveryFailure(channel, account),
        reconnect: (channel, account) => metrics.channelReconnect(channel, account),
      },
    };
  }

  onModuleInit(): void {
    this.approvals?.start();
    this.host.attachChannels(this);
  }

  coreOwner(channelId: string): 'core' | undefined {
    return this.registry.get(channelId) && !this.channels.has(channelId) ? 'core' : undefined;
  }

  add(definition: ChannelDefinition, owner: PluginChannelOwner, section: Record<string, unknown> | undefined): void {
    const channel = new RunningChannel(definition, owner, this.env, section);
    this.channels.set(definition.id, channel);
    this.registry.register(new PluginChannelAdapter(channel, this.sessions));
    void channel.begin();
  }

  configure(channelId: string, section: Record<string, unknown> | undefined): void {
    void this.channels.get(channelId)?.configure(section);
  }

  async remove(channelId: string): Promise<void> {
    const channel = this.channels.get(channelId);
    if (!channel) return;
    this.channels.delete(channelId);
    this.registry.unregister(channelId);
    await channel.remove();
  }

  /** A channel's call out, through the guard; what the guard throws is the channel's `ChannelHttpError`. */
  private async request(channel: string, request: ChannelHttpRequest): Promise<ChannelHttpResponse> {
    const res = await this.transport.request({
      kind: request.kind ?? `channel:${channel}`,
      destination: { url: request.url, setting: request.setting },
      method: request.method ?? 'GET',
      ...(request.headers ? { headers: request.headers } : {}),
      ...(request.body !== undefined ? { body: request.body } : {}),
      ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
      ...(request.readBody !== undefined ? { readBody: request.readBody } : {}),
      ...(request.maxBytes !== undefined ? { maxResponseBytes: request.maxBytes } : {}),
    });
    return { status: res.status, headers: res.headers, body: res.body };
  }

  /** The channels plugins registered, in the order they were. */
  list(): RunningChannel[] {
    return [...this.channels.values()];
  }

  get(channelId: string): RunningChannel | undefined {
    return this.channels.get(channelId);
  }

  /** Every channel id this gateway serves (the core's and the plugins'). */
  ids(): string[] {
    return this.registry.ids();
  }
}
