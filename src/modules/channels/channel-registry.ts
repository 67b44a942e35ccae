import { Injectable } from '@nestjs/common';
import type { ChannelAdapter } from './channel-adapter.port';

/** The channel adapters of this gateway, by id. Adapters register themselves when their module starts. */
@Injectable()
export class ChannelRegistry {
  private readonly adapters = new Map<string, ChannelAdapter>();

  register(adapter: ChannelAdapter): void {
    if (this.adapters.has(adapter.id)) throw new Error(`channel ${adapter.id} is registered twice`);
    this.adapters.set(adapter.id, adapter);
  }

  /** Takes a channel out (a plugin's channel when its plugin unloads). */
  unregister(id: string): void {
    this.adapters.delete(id);
  }

  get(id: string): ChannelAdapter | undefined {
    return this.adapters.get(id);
  }

  ids(): string[] {
    return [...this.adapters.keys()];
  }
}
