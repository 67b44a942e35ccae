import { Controller, Get, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { RequiresRole } from '../../common/auth/requires-role.decorator';
import { notFound } from '../../common/errors/app-error';
import { ProblemDto } from '../../common/errors/problem.dto';
import { PluginDto, PluginListDto } from './dto/plugin.dto';
import { PluginHost } from './plugin-host.service';

/** The plugins and their status (docs/plugins.md#status). Read-only: enabling one is a config write. */
@ApiTags('plugins')
@Controller('admin/plugins')
export class PluginsAdminController {
  constructor(private readonly host: PluginHost) {}

  @Get()
  @RequiresRole('viewer')
  @ApiOperation({
    summary: 'Every plugin and its status',
    description:
      'The plugins found (`plugins.load.paths`, `<stateDir>/extensions/`, bundled) and those given in code, each with its ' +
      'source, version, status (`active`, `failed`, `disabled`, `refused`) and why, what its manifest declares, what it ' +
      'registered, and its config with secrets redacted. Answered once the config applied last has been followed.',
  })
  @ApiOkResponse({ type: PluginListDto, description: 'The plugins.' })
  async list(): Promise<PluginListDto> {
    await this.host.settled();
    return { plugins: this.host.list() };
  }

  @Get(':id')
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'One plugin and its status', description: 'As one entry of `GET /admin/plugins`.' })
  @ApiParam({ name: 'id', description: 'The plugin id.' })
  @ApiOkResponse({ type: PluginDto, description: 'The plugin.' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No plugin with this id was found or given.' })
  async get(@Param('id') id: string): Promise<PluginDto> {
    await this.host.settled();
    const record = this.host.get(id);
    if (!record) {
      const known = this.host.list().map((p) => p.id);
      throw notFound(`no plugin "${id}"; ${known.length ? `known: ${known.join(', ')}` : 'no plugin is found or given'}`);
    }
    return record;
  }
}
