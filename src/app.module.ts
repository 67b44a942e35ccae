import { DynamicModule, Module } from '@nestjs/common';
import { A2aChannelModule } from './modules/a2a-channel';
import { AdminModule } from './modules/admin';
import { SessionPolicyModule } from './modules/session-policy';
import { AgentsModule } from './modules/agents';
import { ChannelsModule, HttpChannelModule, OpenAiEndpointModule } from './modules/channels';
import { ConfigModule, type GatewayOptions } from './modules/config';
import { ConfigPlanModule } from './modules/config-plan';
import { HealthModule } from './modules/health';
import { MemoryModule } from './modules/memory';
import { OutboundModule } from './modules/outbound';
import { RoutingModule } from './modules/routing';
import { RuntimeModule } from './modules/runtime';
import { SessionToolsModule } from './modules/session-tools';
import { SessionsModule } from './modules/sessions';
import { TelemetryModule } from './modules/telemetry';
import { TopologyModule } from './modules/topology';
import { LoggingModule } from './common/logging/logging.module';

@Module({})
export class AppModule {
  static register(options: GatewayOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.register(options),
        LoggingModule,
        TelemetryModule,
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
        OpenAiEndpointModule,
        A2aChannelModule,
        OutboundModule,
        ConfigPlanModule,
        TopologyModule,
      ],
    };
  }
}
