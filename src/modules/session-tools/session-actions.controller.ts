import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { badRequest, notFound } from '../../common/errors/app-error';
import { ConfigStore } from '../config';
import { ProblemDto } from '../../common/errors/problem.dto';
import { ToolRegistry, type ToolResult } from '../runtime';
import { parseSessionKey } from '../sessions';
import { BUILT_IN_TOOLS } from '../../common/built-in-tools';
import { SESSIONS_SEND_SCHEMA, SESSIONS_SPAWN_SCHEMA, SessionsSendArgs, SessionsSpawnArgs } from './session-tool-schemas';
import { SessionToolsService } from './session-tools.service';
import { SessionsSendService } from './sessions-send.service';
import { RequiresRole } from '../../common/auth/requires-role.decorator';

const KEY_PARAM = {
  name: 'key',
  description: 'Session key to act as, URL-encoded (e.g. agent%3Asupport%3Amain).',
  example: 'agent:support:main',
};
const TOOL_RESULT = {
  description: 'Exactly the tool result: `status` is ok | accepted | forbidden | not_found | timeout | error.',
  schema: {
    type: 'object',
    additionalProperties: true,
    example: { status: 'ok', runId: '6f1c…', sessionKey: 'agent:expert:main', reply: '…' },
  },
};

/**
 * The operator acting as a session: the body is exactly the tool's arguments and the answer exactly its
 * result, through the same guard the agent's model would meet. A denied action is a 200 with
 * `status: "forbidden"`, as the tool would report it; malformed arguments are a 400.
 */
@ApiTags('session tools')
@Controller('admin/sessions/:key')
export class SessionActionsController {
  constructor(
    private readonly tools: ToolRegistry,
    private readonly sessionTools: SessionToolsService,
    private readonly sender: SessionsSendService,
    private readonly config: ConfigStore,
  ) {}

  @Post('send')
  @RequiresRole('operator')
  @HttpCode(200)
  @ApiOperation({
    summary: 'sessions_send as this session',
    description: 'Waits up to timeoutSeconds [30] for the reply; 0 answers accepted at once.',
  })
  @ApiParam(KEY_PARAM)
  @ApiBody({
    schema: { ...SESSIONS_SEND_SCHEMA, example: { agentId: 'expert', message: 'Can you check the build?', timeoutSeconds: 30 } } as Record<
      string,
      unknown
    >,
  })
  @ApiOkResponse(TOOL_RESULT)
  @ApiResponse({ status: 400, type: ProblemDto, description: 'Malformed key or arguments.' })
  @ApiResponse({ status: 404, type: ProblemDto, description: 'The key belongs to no configured agent.' })
  send(@Param('key') key: string, @Body() body: unknown): Promise<ToolResult> {
    const sessionKey = this.actingSession(key);
    return this.sender.send({ sessionKey }, this.checked<SessionsSendArgs>(BUILT_IN_TOOLS.sessionsSend, body));
  }

  @Post('spawn')
  @RequiresRole('operator')
  @HttpCode(200)
  @ApiOperation({
    summary: 'sessions_spawn as this session',
    description: 'Creates agent:<id>:subagent:<uuid> spawned by this session and runs the task there.',
  })
  @ApiParam(KEY_PARAM)
  @ApiBody({
    schema: { ...SESSIONS_SPAWN_SCHEMA, example: { task: 'Summarize yesterday’s tickets', label: 'tickets' } } as Record<string, unknown>,
  })
  @ApiOkResponse(TOOL_RESULT)
  @ApiResponse({ status: 400, type: ProblemDto, description: 'Malformed key or arguments.' })
  @ApiResponse({ status: 404, type: ProblemDto, description: 'The key belongs to no configured agent.' })
  spawn(@Param('key') key: string, @Body() body: unknown): Promise<ToolResult> {
    const sessionKey = this.actingSession(key);
    return this.sessionTools.spawn({ sessionKey }, this.checked<SessionsSpawnArgs>(BUILT_IN_TOOLS.sessionsSpawn, body));
  }

  private actingSession(key: string): string {
    const parsed = parseSessionKey(key);
    if (!parsed) throw badRequest(`"${key}" is not a session key (expected agent:<agentId>:<rest>, URL-encoded)`);
    if (!this.config.current().agentsById.has(parsed.agentId)) throw notFound(`no agent "${parsed.agentId}"`);
    return parsed.key;
  }

  private checked<T>(tool: string, body: unknown): T {
    const problem = this.tools.argumentError(tool, body);
    if (problem) throw badRequest(`invalid ${tool} arguments: ${problem}`);
    return body as T;
  }
}
