import { Module } from '@nestjs/common';
import { PluginsModule } from '../plugins';
import { RuntimeModule } from '../runtime';
import { McpAdminController } from './client/mcp-admin.controller';
import { McpClients } from './client/mcp-clients.service';

/**
 * MCP (docs/mcp.md). The client side: agents use the tools of MCP servers (`client/`) — configured, or registered by
 * plugins (it attaches to the plugin host) — and `/admin/mcp`.
 */
@Module({
  imports: [RuntimeModule, PluginsModule],
  controllers: [McpAdminController],
  providers: [McpClients],
  exports: [McpClients],
})
export class McpModule {}
