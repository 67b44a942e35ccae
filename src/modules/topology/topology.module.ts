import { Module } from '@nestjs/common';
import { A2aChannelModule } from '../a2a-channel';
import { ConfigPlanModule } from '../config-plan';
import { McpModule } from '../mcp';
import { SessionPolicyModule } from '../session-policy';
import { SessionToolsModule } from '../session-tools';
import { UsageModule } from '../usage';
import { GraphvizRenderer } from './graphviz-renderer';
import { TopologyController } from './topology.controller';
import { TopologyService } from './topology.service';

/**
 * `/admin/topology`: above every module whose rules it draws (routing, session-policy, memory, outbound, the A2A
 * channel, config-plan, the MCP client for the servers plugins registered) and the stores it counts traffic in
 * (session-tools' exchanges, the A2A task store) and the spend in (the usage store). ConfigStore comes from the global ConfigModule.
 */
@Module({
  imports: [SessionPolicyModule, ConfigPlanModule, SessionToolsModule, A2aChannelModule, McpModule, UsageModule],
  controllers: [TopologyController],
  providers: [TopologyService, GraphvizRenderer],
})
export class TopologyModule {}
