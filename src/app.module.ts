import { DynamicModule, Module } from '@nestjs/common';
import { A2aChannelModule } from './modules/a2a-channel/a2a-channel.module';
import { AdminModule } from './modules/admin/admin.module';
import { SessionPolicyModule } from './modules/session-policy/session-policy.module';
import { AgentsModule } from './modules/agents/agents.module';
import { ChannelsModule } from './modules/channels/channels.module';
import { HttpChannelModule } from './modules/channels/http/http-channel.module';
import { ConfigModule } from './modules/config/config.module';
import type { GatewayOptions } from './modules/config/gateway-options';
import { HealthModule } from './modules/health/health.module';
import { MemoryModule } from './modules/memory/memory.module';
import { OutboundModule } from './modules/outbound/outbound.module';
import { RoutingModule } from './modules/routing/routing.module';
import { RuntimeModule } from './modules/runtime/runtime.module';
import { SessionToolsModule } from './modules/session-tools/session-tools.module';
import { SessionsModule } from './modules/sessions/sessions.module';
import { LoggingModule } from './common/logging/logging.module';

@Module({})
export class AppModule {
  static register(options: GatewayOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.register(options),
        LoggingModule,
        AdminModule,
        HealthModule,
        ChannelsModule,
        AgentsModule,
        RoutingModule,
        SessionsModule,
        SessionPolicyModule,
        RuntimeModule,
        SessionToolsModule,
        MemoryModule,
        HttpChannelModule,
        A2aChannelModule,
        OutboundModule,
      ],
    };
  }
}
