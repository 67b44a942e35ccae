import { applyDecorators, Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { currentConfigActor } from '../../common/auth/config-actor';
import { RequiresRole } from '../../common/auth/requires-role.decorator';
import { badRequest, notFound } from '../../common/errors/app-error';
import { ProblemDto } from '../../common/errors/problem.dto';
import { APPROVAL_STATES, type Approval, type ApprovalState } from './approval';
import { ApprovalGate } from './approval-gate';
import { ApprovalDto, ApprovalListDto } from './dto/approval.dto';

const LIST_LIMIT = { default: 100, max: 1000 };
const MAX_NOTE_CHARS = 2000;

const ID_PARAM = { name: 'id', description: 'Approval id (from GET /admin/approvals, the A2A task’s status message or the log).' };
const DECISION_BODY = {
  schema: {
    type: 'object',
    properties: { note: { type: 'string', maxLength: MAX_NOTE_CHARS, description: 'Why; a denial gives it to the model.' } },
    additionalProperties: false,
    example: { note: 'not on production' },
  },
  required: false,
};

/** Operators decide the tool calls that wait for approval (docs/approvals.md). Each decision is in the audit log. */
@ApiTags('approvals')
@Controller('admin/approvals')
export class ApprovalsController {
  constructor(private readonly gate: ApprovalGate) {}

  @Get()
  @RequiresRole('viewer')
  @ApiOperation({
    summary: 'Tool calls that wait for (or had) an operator’s decision',
    description:
      'Each call of a tool an agent’s `tools.requiresApproval` names: who asked (agent, session, run, channel and caller, ' +
      'the A2A task), the tool and its arguments, and the decision with who made it. Newest first.',
  })
  @ApiQuery({ name: 'state', required: false, enum: APPROVAL_STATES, description: 'Only these (pending: the ones to decide).' })
  @ApiQuery({ name: 'limit', required: false, description: `1–${LIST_LIMIT.max}, default ${LIST_LIMIT.default}.` })
  @ApiOkResponse({ type: ApprovalListDto, description: 'The approvals, newest first.' })
  @ApiResponse({ status: 400, type: ProblemDto, description: 'An unknown state or a limit out of range.' })
  async list(@Query('state') state?: string, @Query('limit') limit?: string): Promise<ApprovalListDto> {
    return { items: await this.gate.list({ state: stateOf(state), limit: limitOf(limit) }) };
  }

  @Get(':id')
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'One approval' })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: ApprovalDto, description: 'The approval, pending or as decided.' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No approval with this id.' })
  async get(@Param('id') id: string): Promise<Approval> {
    const approval = await this.gate.get(id);
    if (!approval) throw notFound(`no approval with id ${id}`);
    return approval;
  }

  @Post(':id/approve')
  @DecisionEndpoint(
    'Let the tool call go ahead',
    'The waiting run calls the tool and goes on; an A2A task goes back to WORKING. When the run that asked is gone (the ' +
      'gateway restarted while it waited), a new run of the session calls the tool and continues the turn (`resumedBy`).',
  )
  approve(@Param('id') id: string, @Body() body: unknown): Promise<Approval> {
    return this.gate.decide(id, 'approved', decider(), noteOf(body));
  }

  @Post(':id/deny')
  @DecisionEndpoint(
    'Refuse the tool call',
    'The tool is not called; the model is told it was denied (with the note) and answers without it. As for approve, a run ' +
      'gone with a restart is resumed to do so.',
  )
  deny(@Param('id') id: string, @Body() body: unknown): Promise<Approval> {
    return this.gate.decide(id, 'denied', decider(), noteOf(body));
  }
}

/** What approve and deny share: the operator role, 200, the {note} body, and their answers. */
function DecisionEndpoint(summary: string, description: string): MethodDecorator {
  return applyDecorators(
    HttpCode(200),
    RequiresRole('operator'),
    ApiOperation({ summary, description }),
    ApiParam(ID_PARAM),
    ApiBody(DECISION_BODY),
    ApiOkResponse({ type: ApprovalDto, description: 'The approval as decided.' }),
    ApiResponse({ status: 400, type: ProblemDto, description: 'A body other than {note}.' }),
    ApiNotFoundResponse({ type: ProblemDto, description: 'No approval with this id.' }),
    ApiConflictResponse({ type: ProblemDto, description: 'Already decided (or expired, or withdrawn): the detail says how and by whom.' }),
  );
}

/** The admin identity the request runs as (config-actor.interceptor.ts); `loopback` with no auth configured. */
function decider(): string {
  return currentConfigActor()?.subject ?? 'unknown';
}

function stateOf(raw: string | undefined): ApprovalState | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!(APPROVAL_STATES as readonly string[]).includes(raw)) throw badRequest(`state must be one of ${APPROVAL_STATES.join(', ')}`);
  return raw as ApprovalState;
}

function limitOf(raw: string | undefined): number {
  if (raw === undefined || raw === '') return LIST_LIMIT.default;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > LIST_LIMIT.max) throw badRequest(`limit must be an integer from 1 to ${LIST_LIMIT.max}`);
  return n;
}

/** The decision body: nothing, `{}` or `{note}`. */
function noteOf(body: unknown): string | undefined {
  if (body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body) && !Object.keys(body).length))
    return undefined;
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('the body must be a JSON object {"note": "…"} or empty');
  const fields = body as Record<string, unknown>;
  const extra = Object.keys(fields).filter((k) => k !== 'note');
  if (extra.length) throw badRequest(`unknown field ${JSON.stringify(extra[0])} (the body is {"note": "…"})`);
  if (typeof fields.note !== 'string' || fields.note.length > MAX_NOTE_CHARS) {
    throw badRequest(`note must be a string of at most ${MAX_NOTE_CHARS} characters`);
  }
  return fields.note || undefined;
}
