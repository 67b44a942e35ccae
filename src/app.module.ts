import { DynamicModule, Module } from '@nestjs/common';
import { AgentsModule } from './modules/agents/agents.module';
import { ConfigModule } from './modules/config/config.module';
import type { GatewayOptions } from './modules/config/gateway-options';
import { HealthModule } from './modules/health/health.module';
import { LoggingModule } from './common/logging/logging.module';

@Module({})
export class AppModule {
  static register(options: GatewayOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [ConfigModule.register(options), HealthModule, LoggingModule, AgentsModule],
    };
  }
}
