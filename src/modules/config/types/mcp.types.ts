/** The normalized `mcp` section: the MCP servers agents' tools come from. */

/** `mcp` (docs/mcp.md): the MCP servers whose tools agents may use, by name. */
export interface McpSettings {
  servers: Record<string, McpServerSettings>;
}

export type McpTransport = 'stdio' | 'streamable-http' | 'sse';

/** One `mcp.servers.<name>`, defaults filled, its transport decided. */
export interface McpServerSettings {
  name: string;
  enabled: boolean;
  transport: McpTransport;
  /** stdio: the program, its arguments, its added environment (values are secrets) and its absolute working directory. */
  command?: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** streamable-http, sse: the endpoint and the headers of every request (values are secrets). */
  url?: string;
  headers: Record<string, string>;
  startup: 'lazy' | 'boot';
  requestTimeoutMs: number;
  connectionTimeoutMs: number;
  maxOutputBytes: number;
  /** The server's tool names (and `*` globs) kept; absent include: every tool. */
  toolFilter: { include?: string[]; exclude: string[] };
}
