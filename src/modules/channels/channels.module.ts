import { Global, Module } from '@nestjs/common';
import { ChannelRegistry } from './channel-registry';

/** The channel registry; channel adapters (http, a2a) register into it. */
@Global()
@Module({ providers: [ChannelRegistry], exports: [ChannelRegistry] })
export class ChannelsModule {}
