import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { RequiresRole } from '../../common/auth/requires-role.decorator';
import { ProblemDto } from '../../common/errors/problem.dto';
import { RunDto, RunTreeKillDto, RunTreeNodeDto } from './dto/run.dto';
import { RUN_CANCELED_BY_OPERATOR, RunCancelService } from './run-cancel.service';
import { RunTrees, type RunTreeKill, type RunTreeNode } from './run-tree';

/** Operator actions on agent runs (docs/runtime.md#aborts-and-shutdown). */
@ApiTags('runs')
@Controller('admin/runs')
export class RunsAdminController {
  constructor(
    private readonly cancels: RunCancelService,
    private readonly trees: RunTrees,
  ) {}

  @Get(':runId/tree')
  @RequiresRole('operator')
  @ApiOperation({
    summary: 'The run and every run it started, recursively, live',
    description:
      "A run's tools start runs elsewhere: a sessions_spawn child, a sessions_send round one, a steer of a spawned session " +
      '(`POST /admin/sessions/{key}/steer`, the subagents tool). This answers the run with those runs below it, and theirs ' +
      'below them: state, agent, session, model, tokens and cost so far (cost when the models have prices), times and ' +
      'elapsed milliseconds. Runs are remembered in memory (the last 2000 finished ones): a forgotten run is missing from ' +
      'its tree, and after a restart no tree is known.',
  })
  @ApiParam({ name: 'runId', description: 'Run id (from session_status, sessions_send/spawn results, an A2A task).' })
  @ApiOkResponse({ type: RunTreeNodeDto, description: 'The tree.' })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'Not a run id.' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No run with this id (or it finished long enough ago to be forgotten).' })
  tree(@Param('runId') runId: string): RunTreeNode {
    return this.trees.tree(runId);
  }

  @Post(':runId/kill')
  @HttpCode(200)
  @RequiresRole('operator')
  @ApiOperation({
    summary: 'Abort a run and every run below it',
    description:
      'Aborts the run, if it is not over, and every queued or running run of its tree (`GET /admin/runs/{runId}/tree`): ' +
      'also the children of a run that has already completed, which a cancel of that run no longer reaches. Each ' +
      'model request is closed and each run ends `aborted`, its A2A task CANCELED. Answers once all of them have stopped ' +
      '(at most 60 s) with the ids it aborted and the tree. 400 when nothing in the tree was still going on.',
  })
  @ApiParam({ name: 'runId', description: 'Run id of the root of the tree to stop.' })
  @ApiOkResponse({ type: RunTreeKillDto, description: 'Stopped: what was aborted, and the tree as it ended.' })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'Not a run id, or the run and everything below it is already over.' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No run with this id (or it finished long enough ago to be forgotten).' })
  kill(@Param('runId') runId: string): Promise<RunTreeKill> {
    return this.trees.kill(runId);
  }

  @Post(':runId/cancel')
  @HttpCode(200)
  @RequiresRole('operator')
  @ApiOperation({
    summary: 'Cancel a queued or running agent run',
    description:
      'Aborts the run (its model request is closed, the tool loop stops) and everything it started elsewhere: a ' +
      'sessions_send or sessions_spawn run in another session is aborted, an outbound A2A task gets a CancelTask at its ' +
      'peer. Answers once all of that has stopped (at most 60 s), with the run `aborted`. An A2A task whose run this is ' +
      'ends CANCELED. 400 when the run is already over (also when it finished before the abort reached it), as for ' +
      '`POST /admin/a2a/tasks/{id}/cancel`.',
  })
  @ApiParam({ name: 'runId', description: 'Run id (from session_status, sessions_send/spawn results, an A2A task).' })
  @ApiOkResponse({
    type: RunDto,
    description: 'Cancelled: the run as it ended.',
    example: {
      runId: '0b6f2a8e-3c1d-4f5e-9a7b-2d4c6e8f0a1b',
      sessionKey: 'agent:support:main',
      agentId: 'support',
      status: 'aborted',
      error: RUN_CANCELED_BY_OPERATOR,
      abortedBy: 'cancel',
      queuedAt: '2026-11-29T10:00:00.000Z',
      startedAt: '2026-11-29T10:00:00.010Z',
      endedAt: '2026-11-29T10:00:03.402Z',
      toolRounds: 1,
    },
  })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'The run is already over.' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No run with this id (or it finished long enough ago to be forgotten).' })
  cancel(@Param('runId') runId: string): Promise<RunDto> {
    return this.cancels.cancel(runId);
  }
}
