export type { ChannelAdapter, DeliveryResult } from './channel-adapter.port';
export { ChannelRegistry } from './channel-registry';
export { ChannelsModule } from './channels.module';
export { HTTP_CHANNEL_SECURITY } from './http/http-channel.controller';
export { HttpChannelModule } from './http/http-channel.module';
export { mountHttpChannelGate } from './http/http-channel.gate';
export { OpenAiEndpointModule } from './openai/openai-endpoint.module';
export { mountOpenAiEndpoint } from './openai/openai-endpoint';
export { PluginChannelsModule } from './plugin-channels/plugin-channels.module';
