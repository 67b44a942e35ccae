export { McpModule } from './mcp.module';
export { McpClients } from './client/mcp-clients.service';
export type { McpServerView, PluginMcpServer } from './client/mcp-clients.service';
