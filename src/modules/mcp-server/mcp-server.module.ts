import { Module } from '@nestjs/common';
import { RuntimeModule } from '../runtime';
import { SessionsModule } from '../sessions';
import { AskAgentService } from './ask-agent.service';
import { McpChannelAdapter } from './mcp-channel.adapter';
import { McpEndpoint } from './mcp-endpoint';

/**
 * The MCP server (`gateway.http.endpoints.mcp`): `/mcp`, each agent a tool, and the `mcp` adapter in the (global)
 * ChannelRegistry. See docs/mcp.md#the-mcp-server.
 */
@Module({
  imports: [RuntimeModule, SessionsModule],
  providers: [AskAgentService, McpEndpoint, McpChannelAdapter],
})
export class McpServerModule {}
