import { Module } from '@nestjs/common';
import { RuntimeModule } from '../runtime';
import { McpAdminController } from './client/mcp-admin.controller';
import { McpClients } from './client/mcp-clients.service';

/** MCP (docs/mcp.md). The client side: agents use the tools of MCP servers (`client/`), and `/admin/mcp`. */
@Module({
  imports: [RuntimeModule],
  controllers: [McpAdminController],
  providers: [McpClients],
  exports: [McpClients],
})
export class McpModule {}
