import { Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { postgresTarget } from '../../../common/storage/postgres';
import { storeFor } from '../../../common/storage/store-for';
import { ConfigStore } from '../../config';
import { ApprovalsModule } from '../../approvals';
import { PluginsModule } from '../../plugins';
import { RoutingModule } from '../../routing';
import { RuntimeModule } from '../../runtime';
import { SessionsModule } from '../../sessions';
import { FilePairingStore } from '../pairing/file-pairing.store';
import { PAIRING_STORE, type PairingStore } from '../pairing/pairing-store.port';
import { PgPairingStore } from '../pairing/pg-pairing.store';
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
    {
      provide: PAIRING_STORE,
      // The store gateway.state names: the state dir's pairing/<channel>.json files, or the tables replicas share.
      useFactory: (config: ConfigStore) =>
        storeFor<PairingStore>(config.current().config.gateway.state, {
          sqlite: () => new FilePairingStore(config.stateDir),
          postgres: async (url) => {
            const store = await PgPairingStore.open(url);
            new Logger('channels').log(`chat pairing is stored in PostgreSQL at ${postgresTarget(url)}`);
            return store;
          },
        }),
      inject: [ConfigStore],
    },
  ],
  exports: [PluginChannels],
})
export class PluginChannelsModule implements OnApplicationShutdown {
  constructor(@Inject(PAIRING_STORE) private readonly pairing: PairingStore) {}

  /** After every channel has stopped (their stops run before this hook): no message can ask the store any more. */
  onApplicationShutdown(): Promise<void> {
    return this.pairing.close();
  }
}
