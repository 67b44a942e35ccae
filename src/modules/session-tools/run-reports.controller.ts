import { Controller, Get, Param } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { RequiresRole } from '../../common/auth/requires-role.decorator';
import { badRequest, notFound } from '../../common/errors/app-error';
import { ProblemDto } from '../../common/errors/problem.dto';
import { MAX_FINISHED_RUNS, notARunIdMessage, parseRunId } from '../runtime';
import { RunReportDto } from './dto/run-report.dto';
import { RunReports } from './run-reports';

const EXAMPLE_STEP = { sessionKey: 'agent:expert:main', status: 'completed', startedAt: '2026-11-29T10:00:00.010Z' };

/**
 * What became of a run, for the operator. Served here rather than beside the runtime's cancel because the
 * answer includes the sessions_send exchange, which this module records. See docs/sessions.md#following-up-on-an-exchange.
 */
@ApiTags('runs')
@Controller('admin/runs')
export class RunReportsController {
  constructor(private readonly reports: RunReports) {}

  @Get(':runId')
  // The role of the other run routes: the operator's view of a run, next to its cancel.
  @RequiresRole('operator')
  @ApiOperation({
    summary: "A run's outcome, and the sessions_send exchange it is part of",
    description:
      'The run (status, reply — at most 2000 characters —, error, times) and, for a run of a sessions_send exchange (round ' +
      'one, a ping-pong turn, the announce), the exchange: the reply of round one, each ping-pong turn and why they stopped, ' +
      'and the announce (delivered, stored, skipped or failed, with the channel target). Use it after a send answered ' +
      '`accepted` or `timeout`. Runs are known while the runtime remembers them (the last ' +
      `${MAX_FINISHED_RUNS} finished); exchanges are stored and outlive restarts (the last ` +
      '`session.agentToAgent.keptExchanges`).',
  })
  @ApiParam({ name: 'runId', description: 'Run id (the runId of a sessions_send or sessions_spawn result, an A2A task, session_status).' })
  @ApiOkResponse({
    type: RunReportDto,
    description: 'The run, and the agent-to-agent exchange it belongs to (if any).',
    example: {
      run: { runId: '0b6f2a8e-3c1d-4f5e-9a7b-2d4c6e8f0a1b', agentId: 'expert', ...EXAMPLE_STEP, reply: 'E42 means a stale cache.' },
      exchangeStep: 'round-one',
      exchange: {
        runId: '0b6f2a8e-3c1d-4f5e-9a7b-2d4c6e8f0a1b',
        chainId: '5d0c9a4e-1b7f-4c2a-8e3d-6f9a0b1c2d3e',
        requesterSessionKey: 'agent:support:main',
        targetSessionKey: 'agent:expert:main',
        request: 'Customer build fails with E42. Cause?',
        callerStatus: 'accepted',
        state: 'finished',
        startedAt: '2026-11-29T10:00:00.000Z',
        updatedAt: '2026-11-29T10:00:05.120Z',
        endedAt: '2026-11-29T10:00:05.120Z',
        roundOne: { runId: '0b6f2a8e-3c1d-4f5e-9a7b-2d4c6e8f0a1b', ...EXAMPLE_STEP, reply: 'E42 means a stale cache.' },
        pingPong: {
          maxTurns: 3,
          turns: [
            {
              turn: 1,
              role: 'requester',
              runId: '7c1e4b2a-9d3f-4e6a-8b1c-2d3e4f5a6b7c',
              ...EXAMPLE_STEP,
              sessionKey: 'agent:support:main',
              reply: 'REPLY_SKIP',
            },
          ],
          endedBecause: 'reply-skip',
        },
        announce: {
          status: 'delivered',
          detail: 'webhook answered HTTP 204',
          target: { channel: 'http', accountId: 'desk', to: 'tech-group' },
          step: { runId: '9a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d', ...EXAMPLE_STEP, reply: 'E42 is a stale cache.' },
          at: '2026-11-29T10:00:05.120Z',
        },
      },
    },
  })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'Not a run id.' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No run with this id is known (any more).' })
  async get(@Param('runId') raw: string): Promise<RunReportDto> {
    const runId = parseRunId(raw);
    if (!runId) throw badRequest(notARunIdMessage(raw));
    const report = await this.reports.find(runId);
    if (!report) {
      throw notFound(
        `no run ${runId}: the runtime keeps the last ${MAX_FINISHED_RUNS} finished runs, the exchange store the last ` +
          'session.agentToAgent.keptExchanges sessions_send exchanges',
      );
    }
    return report;
  }
}
