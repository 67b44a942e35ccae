import { Module } from '@nestjs/common';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../../config';
import { ApprovalsModule } from '../../approvals';
import { PluginsModule } from '../../plugins';
import { RoutingModule } from '../../routing';
import { RuntimeModule } from '../../runtime';
import { SessionsModule } from '../../sessions';
import { PairingStore } from '../pairing/pairing-store';
import { ChannelsAdminController } from './channels-admin.controller';
import { ChannelsAdminService } from './channels-admin.service';
import { PluginChannels } from './plugin-channels.service';

/** The chat channels of plugins: their life, the inbound pipeline, pairing, and their admin views. */
@Module({
  imports: [PluginsModule, RoutingModule, RuntimeModule, SessionsModule, ApprovalsModule],
  controllers: [ChannelsAdminController],
  providers: [
    PluginChannels,
    ChannelsAdminService,
    { provide: PairingStore, useFactory: (options: GatewayOptions) => new PairingStore(options.stateDir), inject: [GATEWAY_OPTIONS] },
  ],
  exports: [PluginChannels],
})
export class PluginChannelsModule {}
