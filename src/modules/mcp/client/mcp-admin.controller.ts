import { Controller, Get, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { RequiresRole } from '../../../common/auth/requires-role.decorator';
import { notFound } from '../../../common/errors/app-error';
import { ProblemDto } from '../../../common/errors/problem.dto';
import { suggestClosest } from '../../../common/text/did-you-mean';
import { McpServerDto, McpServerListDto } from './dto/mcp-server.dto';
import { McpClients } from './mcp-clients.service';

/** The MCP servers agents use (docs/mcp.md#status). Read-only: adding one is a config write. */
@ApiTags('mcp')
@Controller('admin/mcp')
export class McpAdminController {
  constructor(private readonly clients: McpClients) {}

  @Get()
  @RequiresRole('viewer')
  @ApiOperation({
    summary: 'The MCP servers and their tools',
    description:
      'Every server of `mcp.servers`, then those plugins registered (with the plugin id in `plugin`): its state, transport, process id (stdio), restarts, last error and stderr lines, ' +
      'its tools with the names the model and `tools.allow` use, and its settings with `env` and `headers` redacted.',
  })
  @ApiOkResponse({ type: McpServerListDto, description: 'The servers.' })
  list(): McpServerListDto {
    return { servers: this.clients.list() };
  }

  @Get(':name')
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'One MCP server', description: 'As one entry of `GET /admin/mcp`.' })
  @ApiParam({ name: 'name', description: 'Its key under `mcp.servers`, or the name a plugin registered it under.' })
  @ApiOkResponse({ type: McpServerDto, description: 'The server.' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'Neither `mcp.servers` nor an active plugin has a server of this name.' })
  get(@Param('name') name: string): McpServerDto {
    const servers = this.clients.list();
    const server = servers.find((s) => s.name === name);
    if (!server) {
      const hint = suggestClosest(
        name,
        servers.map((s) => s.name),
      );
      throw notFound(
        `no MCP server "${name}" in mcp.servers${hint ? ` (did you mean "${hint}"?)` : servers.length ? '' : '; none is configured'}`,
      );
    }
    return server;
  }
}
