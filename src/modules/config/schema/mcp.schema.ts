import { IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Max, Min, MinLength } from 'class-validator';
import { CONFIG_DEFAULTS } from '../config-defaults';
import { Default, Describe, NestedMap, NestedObject, NoUrlCredentials, StrictObject, StringMap } from './schema-decorators';

/**
 * An MCP server's name: its key under `mcp.servers`, the middle of its tools' policy names (`mcp:<server>:<tool>`)
 * and of the names the model sees (`mcp__<server>__<tool>`), so it keeps to the characters model APIs accept in a
 * function name, and has no `__` (the separator of those names).
 */
export const MCP_SERVER_NAME_PATTERN = /^(?!.*__)[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;
/** OpenClaw's transport names (`openclaw mcp`): `sse` is the older HTTP+SSE transport. */
export const MCP_TRANSPORTS = ['stdio', 'streamable-http', 'sse'] as const;
export const MCP_STARTUPS = ['lazy', 'boot'] as const;

@StrictObject('Which of the server\'s tools become tools of the gateway (OpenClaw\'s toolFilter); names and simple "*" globs.')
export class McpToolFilterConfig {
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @Describe('Only these tools of the server [every tool].')
  include?: string[];

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @Describe('Never these tools (wins over include).')
  @Default(CONFIG_DEFAULTS.each.mcpServer.toolFilter.exclude)
  exclude?: string[];
}

@StrictObject(
  'An MCP server whose tools agents may use (docs/mcp.md): a command run over stdio, or a URL (Streamable HTTP, falling back to HTTP+SSE).',
)
export class McpServerConfig {
  @IsOptional()
  @IsBoolean()
  @Describe('false: the server is kept in the file but not started, and its tools are offered to no agent.')
  @Default(CONFIG_DEFAULTS.each.mcpServer.enabled)
  enabled?: boolean;

  @IsOptional()
  @IsIn(MCP_TRANSPORTS)
  @Describe('stdio (with command), streamable-http or sse (with url) [stdio when command is set, else streamable-http].', {
    type: 'string',
    enum: [...MCP_TRANSPORTS],
  })
  transport?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @Describe('The program to start (stdio), found on PATH or relative to the working directory.')
  command?: string;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Describe('Its arguments (stdio).')
  @Default(CONFIG_DEFAULTS.each.mcpServer.args)
  args?: string[];

  @IsOptional()
  @StringMap(undefined, 'Environment variables of the process (stdio), added to a minimal inherited set (PATH, HOME, …); values are secrets.')
  @Default(CONFIG_DEFAULTS.each.mcpServer.env)
  env?: Record<string, string>;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @Describe("The process's working directory (stdio), relative to this file [this file's directory].")
  cwd?: string;

  @IsOptional()
  @NoUrlCredentials('put the credential in a header of headers')
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  @Describe('The server\'s MCP endpoint (streamable-http, sse).', { type: 'string', format: 'uri' })
  url?: string;

  @IsOptional()
  @StringMap(undefined, 'HTTP headers sent with every request (streamable-http, sse); values are secrets.')
  @Default(CONFIG_DEFAULTS.each.mcpServer.headers)
  headers?: Record<string, string>;

  @IsOptional()
  @IsIn(MCP_STARTUPS)
  @Describe('lazy: started by the first run of an agent allowed its tools; boot: started with the gateway (and when added).', {
    type: 'string',
    enum: [...MCP_STARTUPS],
  })
  @Default(CONFIG_DEFAULTS.each.mcpServer.startup)
  startup?: string;

  @IsOptional()
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  @Describe('How long one tool call may take, in ms; then it is cancelled (notifications/cancelled) and the model reads a timeout.')
  @Default(CONFIG_DEFAULTS.each.mcpServer.requestTimeoutMs)
  requestTimeoutMs?: number;

  @IsOptional()
  @IsInt()
  @Min(100)
  @Max(600_000)
  @Describe('How long starting the server and the MCP handshake may take, in ms.')
  @Default(CONFIG_DEFAULTS.each.mcpServer.connectionTimeoutMs)
  connectionTimeoutMs?: number;

  @IsOptional()
  @IsInt()
  @Min(1024)
  @Max(16 * 1024 * 1024)
  @Describe('Most bytes of a tool result the model reads; the rest is cut with a note.')
  @Default(CONFIG_DEFAULTS.each.mcpServer.maxOutputBytes)
  maxOutputBytes?: number;

  @IsOptional() @NestedObject(() => McpToolFilterConfig) toolFilter?: McpToolFilterConfig;
}

@StrictObject('MCP servers whose tools agents may use (docs/mcp.md).')
export class McpConfig {
  @IsOptional()
  @NestedMap(() => McpServerConfig, 'McpServerConfig', MCP_SERVER_NAME_PATTERN)
  @Default(CONFIG_DEFAULTS.mcp.servers)
  servers?: Map<string, McpServerConfig>;
}
