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
import { SubagentsService } from './subagents.service';
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
    private readonly subagents: SubagentsService,
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

  @Post('steer')
  @RequiresRole('operator')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Steer a session: deliver a message as its next turn',
    description:
      'Starts a run of the session with this message, as the operator: at once when the session is idle, else queued on ' +
      'its lane behind the run in progress (`queuedBehind` says how many runs are ahead), so a spawned session working on a ' +
      "task reads it as soon as its current turn ends. The run joins the tree of the session's latest run " +
      '(`GET /admin/runs/{runId}/tree`), so a kill of that tree stops it too. 404 for a session that does not exist.',
  })
  @ApiParam({ ...KEY_PARAM, example: 'agent:support:subagent:4f1c9a1e-0b5e-4a51-9d7c-2f3f0d1e8a77' })
  @ApiBody({
    schema: {
      type: 'object',
      properties: { message: { type: 'string', minLength: 1, maxLength: 65536 } },
      required: ['message'],
      additionalProperties: false,
      example: { message: 'Stop after the summary; skip the appendix.' },
    },
  })
  @ApiOkResponse({
    description: '`{status: "accepted", runId, sessionKey, queuedBehind}`.',
    schema: {
      type: 'object',
      additionalProperties: true,
      example: { status: 'accepted', runId: '6f1c…', sessionKey: 'agent:support:subagent:4f1c…', queuedBehind: 1 },
    },
  })
  @ApiResponse({ status: 400, type: ProblemDto, description: 'Malformed key or body.' })
  @ApiResponse({ status: 404, type: ProblemDto, description: 'The key belongs to no configured agent, or no such session exists.' })
  async steer(@Param('key') key: string, @Body() body: unknown): Promise<ToolResult> {
    const sessionKey = this.actingSession(key);
    const message = steerMessage(body);
    const result = await this.subagents.steer(sessionKey, message, {});
    if (result.status === 'not_found') throw notFound(`no session ${sessionKey}`);
    return result;
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

/** The steer body: exactly `{message}`, 1–65536 characters. */
function steerMessage(body: unknown): string {
  const fields = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  if (!fields) throw badRequest('the body must be a JSON object {"message": "…"}');
  const extra = Object.keys(fields).filter((k) => k !== 'message');
  if (extra.length) throw badRequest(`unknown field ${JSON.stringify(extra[0])} (the body is {"message": "…"})`);
  const message = fields.message;
  if (typeof message !== 'string' || message.length < 1 || message.length > 65536) {
    throw badRequest('message must be a string of 1–65536 characters');
  }
  return message;
}
