import { DynamicModule, Global, Module } from '@nestjs/common';
import { ConfigAdminService } from './config-admin.service';
import { ConfigWatcher } from './config-watcher.service';
import { ConfigWriter } from './writer/config-writer.service';
import { ConfigController } from './config.controller';
import { ConfigStore } from './config.store';
import { GATEWAY_OPTIONS, GatewayOptions } from './gateway-options';

/** Loads, watches, serves and writes openclaw.json. Global: every module reads the snapshot. */
@Global()
@Module({})
export class ConfigModule {
  static register(options: GatewayOptions): DynamicModule {
    return {
      module: ConfigModule,
      controllers: [ConfigController],
      providers: [{ provide: GATEWAY_OPTIONS, useValue: options }, ConfigStore, ConfigWatcher, ConfigWriter, ConfigAdminService],
      exports: [GATEWAY_OPTIONS, ConfigStore, ConfigWriter],
    };
  }
}
