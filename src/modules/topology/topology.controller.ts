import { Body, Controller, Get, Header, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RequiresRole } from '../../common/auth/requires-role.decorator';
import { ChangesNothing } from '../../common/auth/changes-nothing.decorator';
import { ProblemDto } from '../../common/errors/problem.dto';
import { ConfigPlanRequestDto } from '../config-plan';
import { TopologyPlanQueryDto, TopologyQueryDto } from './dto/topology-query.dto';
import { TopologyDto, TopologyPlanDto } from './dto/topology-response.dto';
import { TopologyService } from './topology.service';

const SVG = 'image/svg+xml; charset=utf-8';
const GRAPH_TEXT =
  'Nodes: channels and their accounts, bindings, the default route, agents, A2A peers in (identities that may call) and out (URLs, never tokens), ' +
  'directories granted to agents that no agent owns. Edges: channel/account → binding → agent (and → the default route → the default agent), ' +
  'agent → agent pairs the three layers allow (the /admin/policy/check evaluator on main sessions), memory grants (grantee → whose directory it may search), ' +
  'A2A peer → the exposed agents its conversations reach, agent → peer for agents that may use a2a_send.';
const BAD_QUERY = 'A bad window (not 1m..7d), a denied other than true/false, or an unknown parameter; detail names it.';

@ApiTags('topology')
@Controller('admin')
export class TopologyController {
  constructor(private readonly topology: TopologyService) {}

  @Get('topology')
  @RequiresRole('viewer')
  @ApiOperation({
    summary: 'The gateway as a graph: who routes to whom, who may reach whom, and what was observed',
    description: `${GRAPH_TEXT} Traffic over ?window (default 1h): sessions_send exchanges per agent pair and A2A tasks per peer and agent, as edge weights (traffic) and as lists.`,
  })
  @ApiOkResponse({ type: TopologyDto, description: 'The graph of the served config, with the traffic of the window.' })
  @ApiResponse({ status: 400, type: ProblemDto, description: BAD_QUERY })
  graph(@Query() query: TopologyQueryDto): Promise<TopologyDto> {
    return this.topology.topology(query);
  }

  @Get('topology.svg')
  @RequiresRole('viewer')
  @Header('Content-Type', SVG)
  @Header('Cache-Control', 'no-store')
  @ApiProduces('image/svg+xml')
  @ApiOperation({
    summary: 'The topology drawn by Graphviz (SVG)',
    description:
      'The graph of GET /admin/topology laid out left to right (inbound → bindings → agents → peers out), one cluster per column; agents that all reach ' +
      'each other alike drawn as one cluster; a legend of the edge styles. A stable URL for embedding. Same query parameters.',
  })
  @ApiOkResponse({ description: 'An SVG document.', content: { 'image/svg+xml': { schema: { type: 'string' } } } })
  @ApiResponse({ status: 400, type: ProblemDto, description: BAD_QUERY })
  svg(@Query() query: TopologyQueryDto): Promise<string> {
    return this.topology.svg(query);
  }

  @Post('topology/plan')
  @ChangesNothing()
  @RequiresRole('admin')
  @HttpCode(200)
  @ApiOperation({
    summary: 'The edges and nodes a config change would add and remove',
    description:
      'Takes the body of POST /admin/config/plan (admin only: the candidate expands ${VAR}) and compares the candidate’s topology with the served one ' +
      '(allowed agent-to-agent pairs only, no traffic). An invalid candidate is answered 200 with valid: false and its errors.',
  })
  @ApiBody({
    type: ConfigPlanRequestDto,
    examples: { mergePatch: { value: { mergePatch: { tools: { agentToAgent: { enabled: true } } } } } },
  })
  @ApiOkResponse({
    type: TopologyPlanDto,
    description: 'The nodes and edges the candidate adds and removes (valid: false with its errors when invalid).',
  })
  @ApiResponse({ status: 400, type: ProblemDto, description: 'Neither or both of document and mergePatch, or either malformed.' })
  @ApiResponse({ status: 409, type: ProblemDto, description: 'The merge patch touches an $include, or the file on disk is not JSON5.' })
  plan(@Body() body: ConfigPlanRequestDto): Promise<TopologyPlanDto> {
    return this.topology.plan(body);
  }

  @Post('topology/plan.svg')
  @ChangesNothing()
  @RequiresRole('admin')
  @HttpCode(200)
  @Header('Content-Type', SVG)
  @Header('Cache-Control', 'no-store')
  @ApiProduces('image/svg+xml')
  @ApiOperation({
    summary: 'A config change drawn as before/after (SVG)',
    description:
      'The candidate’s topology with what it adds in bold green and what it removes dashed in red (nodes and edges). Same body as POST /admin/config/plan. ' +
      '?side=before draws the served config in the same layout (every node where the after side has it), so the two can be compared. ' +
      'A stable URL for embedding.',
  })
  @ApiBody({ type: ConfigPlanRequestDto })
  @ApiOkResponse({ description: 'An SVG document.', content: { 'image/svg+xml': { schema: { type: 'string' } } } })
  @ApiResponse({
    status: 400,
    type: ProblemDto,
    description: 'Neither or both of document and mergePatch, either malformed, or side not before/after.',
  })
  @ApiResponse({ status: 422, type: ProblemDto, description: 'The candidate is not a valid config (errors[] lists why); nothing to draw.' })
  planSvg(@Body() body: ConfigPlanRequestDto, @Query() query: TopologyPlanQueryDto): Promise<string> {
    return this.topology.planSvg(body, query.side);
  }
}
