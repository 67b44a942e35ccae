import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { RequiresRole } from '../../common/auth/requires-role.decorator';
import { ProblemDto } from '../../common/errors/problem.dto';
import { RunDto } from './dto/run.dto';
import { RUN_CANCELED_BY_OPERATOR, RunCancelService } from './run-cancel.service';

/** Operator actions on agent runs (docs/runtime.md#aborts-and-shutdown). */
@ApiTags('runs')
@Controller('admin/runs')
export class RunsAdminController {
  constructor(private readonly cancels: RunCancelService) {}

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
