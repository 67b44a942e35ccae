import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Put, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { requireIfMatch } from '../../common/http/if-match';
import { ProblemDto } from '../../common/errors/problem.dto';
import { AgentsAdminService } from './agents-admin.service';
import {
  AddBindingDto,
  AgentIdentityDto,
  AgentViewDto,
  AgentWriteResultDto,
  BindingsWriteResultDto,
  CreateAgentDto,
  ResolvedBindingDto,
  RevisionDto,
  UpdateAgentDto,
} from './dto/agent.dto';
import { RequiresRole } from '../../common/auth/requires-role.decorator';

const IF_MATCH = {
  name: 'If-Match',
  required: true,
  description: 'The config revision you read (ETag of GET /admin/config). Stale → 412; missing → 428.',
};
const WRITE_ERRORS = [
  { status: 412, type: ProblemDto, description: 'The config changed since the revision in If-Match.' },
  { status: 422, type: ProblemDto, description: 'The edit would make the config invalid; nothing was written.' },
  { status: 409, type: ProblemDto, description: 'The entry lives in an $include\'d file.' },
];

function documentWrite(): MethodDecorator {
  return (target, key, descriptor) => {
    ApiHeader(IF_MATCH)(target, key, descriptor);
    for (const r of WRITE_ERRORS) ApiResponse(r)(target, key, descriptor);
  };
}

/** Agents in openclaw.json. Writes edit the file in place (comments kept) and apply at once. */
@ApiTags('agents')
@Controller('admin/agents')
export class AgentsController {
  constructor(private readonly agents: AgentsAdminService) {}

  @Get()
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'List agents with their resolved settings and bindings' })
  @ApiOkResponse({ type: [AgentViewDto] })
  list(): AgentViewDto[] {
    return this.agents.list();
  }

  @Get(':id')
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'One agent' })
  @ApiOkResponse({ type: AgentViewDto })
  @ApiResponse({ status: 404, type: ProblemDto })
  get(@Param('id') id: string): AgentViewDto {
    return this.agents.get(id);
  }

  @Post()
  @RequiresRole('admin')
  @ApiOperation({ summary: 'Add an agent to openclaw.json' })
  @documentWrite()
  @ApiCreatedResponse({ type: AgentWriteResultDto })
  async create(@Body() body: CreateAgentDto, @Headers('if-match') ifMatch: string | undefined, @Res({ passthrough: true }) res: Response): Promise<AgentWriteResultDto> {
    const { id, ...fields } = body;
    const result = await this.agents.create(id, fields, requireIfMatch(ifMatch));
    res.setHeader('ETag', `"${result.revision}"`);
    return result;
  }

  @Patch(':id')
  @RequiresRole('admin')
  @ApiOperation({ summary: 'Change fields of an agent', description: 'Only the given fields change; nested objects (identity, sandbox, tools) are replaced whole.' })
  @documentWrite()
  @ApiOkResponse({ type: AgentWriteResultDto })
  async update(@Param('id') id: string, @Body() body: UpdateAgentDto, @Headers('if-match') ifMatch: string | undefined, @Res({ passthrough: true }) res: Response): Promise<AgentWriteResultDto> {
    const result = await this.agents.update(id, body, requireIfMatch(ifMatch));
    res.setHeader('ETag', `"${result.revision}"`);
    return result;
  }

  @Put(':id/identity')
  @RequiresRole('admin')
  @ApiOperation({ summary: 'Set identity fields (name, emoji, avatar); others stay' })
  @documentWrite()
  @ApiOkResponse({ type: AgentWriteResultDto })
  async setIdentity(@Param('id') id: string, @Body() body: AgentIdentityDto, @Headers('if-match') ifMatch: string | undefined, @Res({ passthrough: true }) res: Response): Promise<AgentWriteResultDto> {
    const result = await this.agents.setIdentity(id, body, requireIfMatch(ifMatch));
    res.setHeader('ETag', `"${result.revision}"`);
    return result;
  }

  @Delete(':id')
  @RequiresRole('admin')
  @ApiOperation({ summary: 'Remove an agent and the bindings that route to it', description: 'Its workspace and sessions stay on disk.' })
  @documentWrite()
  @ApiOkResponse({ type: RevisionDto })
  async remove(@Param('id') id: string, @Headers('if-match') ifMatch: string | undefined, @Res({ passthrough: true }) res: Response): Promise<RevisionDto> {
    const result = await this.agents.remove(id, requireIfMatch(ifMatch));
    res.setHeader('ETag', `"${result.revision}"`);
    return result;
  }

  @Get(':id/bindings')
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'Bindings that route to this agent' })
  @ApiOkResponse({ type: [ResolvedBindingDto] })
  bindings(@Param('id') id: string): ResolvedBindingDto[] {
    return this.agents.get(id).bindings;
  }

  @Post(':id/bindings')
  @RequiresRole('admin')
  @ApiOperation({ summary: 'Append a binding routing matching messages to this agent' })
  @documentWrite()
  @ApiCreatedResponse({ type: BindingsWriteResultDto })
  async addBinding(@Param('id') id: string, @Body() body: AddBindingDto, @Headers('if-match') ifMatch: string | undefined, @Res({ passthrough: true }) res: Response): Promise<BindingsWriteResultDto> {
    const result = await this.agents.addBinding(id, body.match, requireIfMatch(ifMatch));
    res.setHeader('ETag', `"${result.revision}"`);
    return result;
  }
}

/** All bindings in config order (the order decides ties within a precedence tier). */
@ApiTags('agents')
@Controller('admin/bindings')
export class BindingsController {
  constructor(private readonly agents: AgentsAdminService) {}

  @Get()
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'List bindings in config order' })
  @ApiOkResponse({ type: [ResolvedBindingDto] })
  list(): ResolvedBindingDto[] {
    return this.agents.listBindings();
  }

  @Delete(':index')
  @RequiresRole('admin')
  @HttpCode(200)
  @ApiOperation({ summary: 'Remove the binding at this position of bindings[]' })
  @documentWrite()
  @ApiOkResponse({ type: RevisionDto })
  async remove(@Param('index') index: string, @Headers('if-match') ifMatch: string | undefined, @Res({ passthrough: true }) res: Response): Promise<RevisionDto> {
    const position = /^\d+$/.test(index) ? Number(index) : -1;
    const result = await this.agents.removeBinding(position, requireIfMatch(ifMatch));
    res.setHeader('ETag', `"${result.revision}"`);
    return result;
  }
}
