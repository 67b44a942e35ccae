import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class PluginContractsDto {
  @ApiProperty({ type: [String], description: 'Tool names.' })
  tools!: string[];
  @ApiProperty({ type: [String], description: 'Model provider ids.' })
  providers!: string[];
  @ApiProperty({ type: [String], description: 'Channel ids.' })
  channels!: string[];
  @ApiProperty({ type: [String], description: 'MCP server names (`contracts.mcpServers`).' })
  mcpServers!: string[];
}

export class PluginRegisteredDto {
  @ApiProperty({ type: [String], description: 'Tools it registered (offered to agents as their `tools.allow`/`deny` say).' })
  tools!: string[];
  @ApiProperty({
    type: [String],
    description: 'Its HTTP routes, as `METHOD /plugins/<id>/path`.',
    example: ['GET /plugins/weather/status'],
  })
  routes!: string[];
  @ApiProperty({ type: [String], description: 'Its services (started when it was loaded).' })
  services!: string[];
  @ApiProperty({ type: [String], description: 'The hooks it listens to.', example: ['before_tool_call'] })
  hooks!: string[];
  @ApiProperty({
    type: [String],
    description: 'The chat channels it registered (run by the gateway once configured).',
    example: ['telegram'],
  })
  channels!: string[];
  @ApiProperty({
    type: [String],
    description: 'The MCP servers it registered (run by the MCP client like `mcp.servers`; see `GET /admin/mcp`).',
    example: ['wiki'],
  })
  mcpServers!: string[];
}

export class PluginDto {
  @ApiProperty({ example: 'weather', description: 'The plugin id: its key under `plugins.entries` and its routes’ prefix.' })
  id!: string;
  @ApiProperty({
    enum: ['load-path', 'extensions', 'bundled', 'code'],
    description: 'Where it was found: a `plugins.load.paths` entry, `<stateDir>/extensions/`, the bundled ones, or given in code.',
  })
  source!: string;
  @ApiPropertyOptional({ description: 'Its name (manifest).' })
  name?: string;
  @ApiPropertyOptional({ description: 'What it does (manifest).' })
  description?: string;
  @ApiPropertyOptional({ example: '1.2.0', description: 'Its version (manifest).' })
  version?: string;
  @ApiPropertyOptional({ description: 'Its root directory (absent for a plugin given in code).' })
  root?: string;
  @ApiProperty({
    enum: ['active', 'failed', 'disabled', 'refused'],
    description:
      '`active`: loaded and registered; `failed`: its code threw (or hung) in `register` or a service’s `start`, see `errors`; ' +
      '`disabled`: the config does not enable it; `refused`: found but not valid or not trusted, see `reason`.',
  })
  status!: string;
  @ApiPropertyOptional({ description: 'Why it is disabled, refused or failed, or that a config change waits for a restart.' })
  reason?: string;
  @ApiProperty({ type: [String], description: 'Errors of its code (empty unless `failed`).' })
  errors!: string[];
  @ApiPropertyOptional({
    type: PluginContractsDto,
    description: 'What its manifest declares it registers (absent for a plugin given in code).',
  })
  declared?: PluginContractsDto;
  @ApiProperty({ type: PluginRegisteredDto, description: 'What it registered while active (empty otherwise).' })
  registered!: PluginRegisteredDto;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Its config (`plugins.entries.<id>.config`), secrets replaced by `[redacted]`.',
  })
  config!: Record<string, unknown>;
  @ApiProperty({ example: '2026-12-06T20:00:00.000Z', description: 'When it reached this status.' })
  since!: string;
}

export class PluginListDto {
  @ApiProperty({ type: [PluginDto], description: 'Every plugin found or given in code, in discovery order.' })
  plugins!: PluginDto[];
}
