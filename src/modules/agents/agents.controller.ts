import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { IfMatch, RevisionedWrite } from '../../common/http/revisioned-write.decorator';
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

const NO_AGENT = { status: 404, type: ProblemDto, description: 'No agent with this id.' };

/** Agents in openclaw.json. Writes edit the file in place (comments kept) and apply at once. */
@ApiTags('agents')
@Controller('admin/agents')
export class AgentsController {
  constructor(private readonly agents: AgentsAdminService) {}

  @Get()
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'List agents with their resolved settings and bindings' })
  @ApiOkResponse({ type: [AgentViewDto], description: 'Every configured agent, in config order.' })
  list(): AgentViewDto[] {
    return this.agents.list();
  }

  @Get(':id')
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'One agent' })
  @ApiOkResponse({ type: AgentViewDto, description: 'The agent with its bindings.' })
  @ApiResponse(NO_AGENT)
  get(@Param('id') id: string): AgentViewDto {
    return this.agents.get(id);
  }

  @Post()
  @RequiresRole('admin')
  @ApiOperation({ summary: 'Add an agent to openclaw.json' })
  @RevisionedWrite()
  @ApiCreatedResponse({ type: AgentWriteResultDto, description: 'Added: the agent and the new revision (also the ETag).' })
  create(@Body() body: CreateAgentDto, @IfMatch() ifMatch: string): Promise<AgentWriteResultDto> {
    const { id, ...fields } = body;
    return this.agents.create(id, fields, ifMatch);
  }

  @Patch(':id')
  @RequiresRole('admin')
  @ApiOperation({
    summary: 'Change fields of an agent',
    description: 'Only the given fields change; nested objects (identity, sandbox, tools) are replaced whole.',
  })
  @RevisionedWrite()
  @ApiOkResponse({ type: AgentWriteResultDto, description: 'Updated: the agent and the new revision (also the ETag).' })
  @ApiResponse(NO_AGENT)
  update(@Param('id') id: string, @Body() body: UpdateAgentDto, @IfMatch() ifMatch: string): Promise<AgentWriteResultDto> {
    return this.agents.update(id, body, ifMatch);
  }

  @Put(':id/identity')
  @RequiresRole('admin')
  @ApiOperation({ summary: 'Set identity fields (name, emoji, avatar); others stay' })
  @RevisionedWrite()
  @ApiOkResponse({ type: AgentWriteResultDto, description: 'Identity set: the agent and the new revision (also the ETag).' })
  @ApiResponse(NO_AGENT)
  setIdentity(@Param('id') id: string, @Body() body: AgentIdentityDto, @IfMatch() ifMatch: string): Promise<AgentWriteResultDto> {
    return this.agents.setIdentity(id, body, ifMatch);
  }

  @Delete(':id')
  @RequiresRole('admin')
  @ApiOperation({ summary: 'Remove an agent and the bindings that route to it', description: 'Its workspace and sessions stay on disk.' })
  @RevisionedWrite()
  @ApiOkResponse({ type: RevisionDto, description: 'Deleted: the new revision (also the ETag).' })
  @ApiResponse(NO_AGENT)
  remove(@Param('id') id: string, @IfMatch() ifMatch: string): Promise<RevisionDto> {
    return this.agents.remove(id, ifMatch);
  }

  @Get(':id/bindings')
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'Bindings that route to this agent' })
  @ApiOkResponse({ type: [ResolvedBindingDto], description: 'The bindings that route to this agent.' })
  @ApiResponse(NO_AGENT)
  bindings(@Param('id') id: string): ResolvedBindingDto[] {
    return this.agents.get(id).bindings;
  }

  @Post(':id/bindings')
  @RequiresRole('admin')
  @ApiOperation({ summary: 'Append a binding routing matching messages to this agent' })
  @RevisionedWrite()
  @ApiCreatedResponse({ type: BindingsWriteResultDto, description: 'Added: the bindings and the new revision (also the ETag).' })
  @ApiResponse(NO_AGENT)
  addBinding(@Param('id') id: string, @Body() body: AddBindingDto, @IfMatch() ifMatch: string): Promise<BindingsWriteResultDto> {
    return this.agents.addBinding(id, body.match, ifMatch);
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
  @ApiOkResponse({ type: [ResolvedBindingDto], description: 'Every binding, in config order (its index is its position).' })
  list(): ResolvedBindingDto[] {
    return this.agents.listBindings();
  }

  @Delete(':index')
  @RequiresRole('admin')
  @HttpCode(200)
  @ApiOperation({ summary: 'Remove the binding at this position of bindings[]' })
  @RevisionedWrite()
  @ApiOkResponse({ type: RevisionDto, description: 'Removed: the new revision (also the ETag).' })
  @ApiResponse({ status: 404, type: ProblemDto, description: 'No binding at this position.' })
  remove(@Param('index') index: string, @IfMatch() ifMatch: string): Promise<RevisionDto> {
    const position = /^\d+$/.test(index) ? Number(index) : -1;
    return this.agents.removeBinding(position, ifMatch);
  }
}
