export { McpServerModule } from './mcp-server.module';
export { MCP_AGENT_HEADER, MCP_ENDPOINT_PATH, mountMcpEndpoint } from './mcp-endpoint';
