import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class McpToolDto {
  @ApiProperty({ example: 'read_file', description: 'The tool’s name at its server.' })
  name!: string;
  @ApiProperty({ example: 'mcp__files__read_file', description: 'The function name the model calls it by.' })
  functionName!: string;
  @ApiProperty({ example: 'mcp:files:read_file', description: 'Its name in `tools.allow`/`tools.deny`.' })
  policyName!: string;
  @ApiPropertyOptional({ description: 'What the server says it does.' })
  description?: string;
}

export class McpServerDto {
  @ApiProperty({ example: 'files', description: 'Its key under `mcp.servers`, or the name a plugin registered it under.' })
  name!: string;
  @ApiPropertyOptional({
    example: 'wiki-tools',
    description: 'The id of the plugin that registered it (`api.registerMcpServer`); absent for a server of `mcp.servers`.',
  })
  plugin?: string;
  @ApiProperty({ description: '`enabled` of its settings.' })
  enabled!: boolean;
  @ApiProperty({ enum: ['lazy', 'boot'], description: 'When it starts: on the first run that may use it, or with the gateway.' })
  startup!: string;
  @ApiProperty({
    enum: ['idle', 'starting', 'ready', 'failed', 'stopped'],
    description:
      '`idle`: not started yet (lazy); `starting`; `ready`; `failed`: it stopped or could not start and is restarted with ' +
      'backoff, see `lastError`; `stopped`: disabled.',
  })
  state!: string;
  @ApiProperty({
    enum: ['stdio', 'streamable-http', 'sse'],
    description: 'The transport in use (an HTTP server may have fallen back to sse).',
  })
  transport!: string;
  @ApiPropertyOptional({ description: 'The process id of a running stdio server.' })
  pid?: number;
  @ApiPropertyOptional({ description: 'When it last became ready.' })
  startedAt?: string;
  @ApiProperty({ description: 'How many times it was restarted after a failure.' })
  restarts!: number;
  @ApiProperty({ description: 'Tool calls running now (a retired connection’s are not counted).' })
  callsInFlight!: number;
  @ApiPropertyOptional({ description: 'Why it last failed (secrets masked).' })
  lastError?: string;
  @ApiPropertyOptional({ description: 'When it last failed.' })
  lastErrorAt?: string;
  @ApiProperty({ type: [String], description: 'The last lines a stdio server wrote to stderr (secrets masked).' })
  stderr!: string[];
  @ApiProperty({ type: [McpToolDto], description: 'Its tools as last listed (after `toolFilter`).' })
  tools!: McpToolDto[];
  @ApiProperty({
    type: [String],
    example: ['main'],
    description:
      'The agents whose `tools.allow` grants some tool of this server (an `mcp:` entry naming it or matching it with `*`) and ' +
      'whose `tools.deny` is not `*`, in config order: their runs start a lazy server. A `tools.deny` entry may still take ' +
      'single tools away.',
  })
  agents!: string[];
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Its settings, defaults filled, with the values of `env` and `headers` redacted.',
  })
  config!: Record<string, unknown>;
}

export class McpServerListDto {
  @ApiProperty({
    type: [McpServerDto],
    description: 'Every server of `mcp.servers`, in the order of the config, then those plugins registered (with `plugin`).',
  })
  servers!: McpServerDto[];
}
