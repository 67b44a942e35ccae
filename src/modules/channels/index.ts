export type { ChannelAdapter, DeliveryResult } from './channel-adapter.port';
export { ChannelRegistry } from './channel-registry';
export { ChannelsModule } from './channels.module';
export { PluginChannelsModule } from './plugin-channels/plugin-channels.module';
export { StoredDeliveryAdapter } from './stored-delivery.adapter';
