import type { ChannelDefinition, PluginLogger } from '../../plugin-sdk';

/** What a channel's plugin lends its channels: its logger and its private directory. */
export interface PluginChannelOwner {
  pluginId: string;
  logger: PluginLogger;
  /** The plugin's `api.stateDir` (made on first read). */
  stateDir(): string;
}

/**
 * Who runs the chat channels plugins register (the channels module, a layer above this one, attaches itself with
 * `PluginHost.attachChannels`): the host hands over each channel once its plugin's `register` returned, its
 * `channels.<id>` section as each applied config has it, and takes it back when the plugin unloads.
 */
export interface PluginChannelRunner {
  /** `core` when the gateway serves this channel id itself, without a plugin; undefined when it is free. */
  coreOwner(channelId: string): 'core' | undefined;
  /** A channel registered by an active plugin; `section` is its validated `channels.<id>` (undefined: not configured). */
  add(channel: ChannelDefinition, owner: PluginChannelOwner, section: Record<string, unknown> | undefined): void;
  /** The applied config changed the channel's section (or removed it: undefined). */
  configure(channelId: string, section: Record<string, unknown> | undefined): void;
  /** The plugin unloads: the channel stops (under the stop deadline) and leaves the registry. */
  remove(channelId: string): Promise<void>;
}
