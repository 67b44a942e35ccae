export { McpModule } from './mcp.module';
export { McpClients } from './client/mcp-clients.service';
export type { McpServerView } from './client/mcp-clients.service';
