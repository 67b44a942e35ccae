import { DynamicModule, Module } from '@nestjs/common';
import { A2aChannelModule } from './modules/a2a-channel';
import { AdminModule } from './modules/admin';
import { SessionPolicyModule } from './modules/session-policy';
import { AgentsModule } from './modules/agents';
import { HttpChannelRouteDocsModule } from './bundled-plugins/http/http-route.docs';
import { ChannelsModule, PluginChannelsModule } from './modules/channels';
import { McpServerModule } from './modules/mcp-server';
import { ConfigModule, type ConfigStore, type GatewayOptions } from './modules/config';
import { ConfigPlanModule } from './modules/config-plan';
import { ClusterModule } from './modules/cluster';
import { HealthModule } from './modules/health';
import { MetricsModule } from './modules/metrics';
import { McpModule } from './modules/mcp';
import { MemoryModule } from './modules/memory';
import { OutboundModule } from './modules/outbound';
import { PluginsModule } from './modules/plugins';
import { RoutingModule } from './modules/routing';
import { RuntimeModule } from './modules/runtime';
import { SessionToolsModule } from './modules/session-tools';
import { SessionsModule } from './modules/sessions';
import { TelemetryModule } from './modules/telemetry';
import { TopologyModule } from './modules/topology';
import { type GatewayLogging, LoggingModule } from './common/logging/logging.module';

/**
 * The gateway's module graph, built once its config is loaded (`config`, by bootstrap.ts) and its logging made: so a
 * provider factory may read the config, e.g. a store's `gateway.state`.
 */
@Module({})
export class AppModule {
  static register(options: GatewayOptions, config: ConfigStore, logging: GatewayLogging): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.register(options, config),
        LoggingModule.forRoot(logging),
        MetricsModule,
        ClusterModule,
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
        // The http channel is the bundled plugin's; this module only describes its route in the OpenAPI document.
        HttpChannelRouteDocsModule,
        McpServerModule,
        A2aChannelModule,
        OutboundModule,
        ConfigPlanModule,
        TopologyModule,
        PluginsModule,
        PluginChannelsModule,
        McpModule,
      ],
    };
  }
}
