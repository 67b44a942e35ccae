import { DynamicModule, Global, Module } from '@nestjs/common';
import { ConfigAdminService } from './config-admin.service';
import { ConfigWatcher } from './config-watcher.service';
import { ConfigWriter } from './writer/config-writer.service';
import { ConfigController } from './config.controller';
import { ConfigStore } from './config.store';
import { GATEWAY_OPTIONS, GatewayOptions } from './gateway-options';

/**
 * Watches, serves and writes openclaw.json. Global: every module reads the snapshot. The ConfigStore comes loaded
 * (bootstrap.ts loads the config before it builds the module graph), so a provider factory may read the config.
 */
@Global()
@Module({})
export class ConfigModule {
  static register(options: GatewayOptions, store: ConfigStore): DynamicModule {
    return {
      module: ConfigModule,
      controllers: [ConfigController],
      providers: [
        { provide: GATEWAY_OPTIONS, useValue: options },
        { provide: ConfigStore, useValue: store },
        ConfigWatcher,
        ConfigWriter,
        ConfigAdminService,
      ],
      exports: [GATEWAY_OPTIONS, ConfigStore, ConfigWriter],
    };
  }
}
