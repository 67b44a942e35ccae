import { Injectable } from '@nestjs/common';
import { badRequest, notFound } from '../../../common/errors/app-error';
import { isRecord } from '../../../common/is-record';
import { suggestClosest } from '../../../common/text/did-you-mean';
import { ConfigStore } from '../../config';
import { PluginHost } from '../../plugins';
import { canonicalPairingCode } from '../pairing/pairing-code';
import type { ChannelAccountStatusDto, ChannelStatusDto } from './dto/channel-status.dto';
import type { ChannelPairingDto, PairingDecisionDto } from './dto/pairing.dto';
import { PluginChannels } from './plugin-channels.service';
import type { RunningChannel } from './running-channel';

/** What `/admin/channels` and `/admin/pairing` answer (docs/channels.md#operations). */
@Injectable()
export class ChannelsAdminService {
  constructor(
    private readonly channels: PluginChannels,
    private readonly host: PluginHost,
    private readonly config: ConfigStore,
  ) {}

  async list(): Promise<ChannelStatusDto[]> {
    await this.host.settled();
    return this.channels
      .ids()
      .sort()
      .map((id) => {
        const running = this.channels.get(id);
        return running ? statusOf(running) : this.coreStatus(id);
      });
  }

  async pairing(channel: string | undefined): Promise<ChannelPairingDto[]> {
    await this.host.settled();
    const ids = channel === undefined ? undefined : [this.pluginChannel(channel)];
    return this.channels.pairing.list(ids ?? this.pairingChannels().map((c) => c.id));
  }

  async decide(channel: string, code: string, decision: 'approve' | 'deny'): Promise<PairingDecisionDto> {
    await this.host.settled();
    const id = this.pluginChannel(channel);
    const canonical = canonicalPairingCode(code);
    if (!canonical) {
      throw badRequest(`code: "${code.slice(0, 32)}" is not a pairing code (8 letters and digits, as the sender was given)`, [
        { field: 'code', message: 'not a pairing code' },
      ]);
    }
    const store = this.channels.pairing;
    const request = decision === 'approve' ? await store.approve(id, canonical) : undefined;
    const denied = decision === 'deny' ? await store.deny(id, canonical) : undefined;
    const sender = request ?? denied;
    if (!sender) throw notFound(`no pending pairing code ${canonical} for channel ${id} (expired, already decided, or never given)`);
    return {
      channel: id,
      code: canonical,
      decision: decision === 'approve' ? 'approved' : 'denied',
      senderId: sender.senderId,
      ...(sender.senderName ? { senderName: sender.senderName } : {}),
    };
  }

  /** A channel a plugin runs (pairing is theirs only), or a 404 naming those there are. */
  private pluginChannel(channel: string): string {
    if (this.pairingChannels().some((c) => c.id === channel)) return channel;
    const known = this.pairingChannels().map((c) => c.id);
    const hint = suggestClosest(channel, known);
    throw notFound(
      `no chat channel "${channel.slice(0, 64)}"${hint ? ` (did you mean "${hint}"?)` : ''}; ${known.length ? `the chat channels are ${known.join(', ')}` : 'no plugin runs a chat channel'}`,
    );
  }

  /** The plugins' channels that pair people: not one whose callers are accounts it authenticates (the http channel). */
  private pairingChannels(): RunningChannel[] {
    return this.channels.list().filter((c) => (c.definition.access ?? 'policy') === 'policy');
  }

  private coreStatus(id: string): ChannelStatusDto {
    const section = (this.config.current().config.channels as unknown as Record<string, unknown>)[id];
    return {
      id,
      plugin: 'core',
      enabled: isRecord(section) ? section.enabled !== false : true,
      state: 'core',
      failures: 0,
      restarts: 0,
      accounts: [],
    };
  }
}

function statusOf(channel: RunningChannel): ChannelStatusDto {
  const section = channel.config;
  const configured = section && isRecord(section.accounts) ? Object.keys(section.accounts) : [];
  const ids = [
    ...new Set([...(configured.length ? configured : section ? ['default'] : []), ...channel.health.keys(), ...channel.stats.keys()]),
  ];
  const accounts: ChannelAccountStatusDto[] = ids.map((accountId) => {
    const health = channel.health.get(accountId);
    const stats = channel.statsOf(accountId);
    return {
      accountId,
      state: health?.state ?? 'unknown',
      ...(health?.error ? { error: health.error } : {}),
      messagesIn: stats.messagesIn,
      messagesOut: stats.messagesOut,
      deliveryFailures: stats.deliveryFailures,
      reconnects: stats.reconnects,
      ...(stats.lastIgnored ? { lastIgnored: stats.lastIgnored } : {}),
    };
  });
  return {
    id: channel.id,
    plugin: channel.owner.pluginId,
    enabled: channel.enabled,
    state: channel.state,
    ...(channel.error ? { error: channel.error } : {}),
    failures: channel.failures,
    restarts: channel.restarts,
    accounts,
  };
}
