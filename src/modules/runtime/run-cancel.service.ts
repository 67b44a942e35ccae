import { Injectable } from '@nestjs/common';
import { badRequest, notFound } from '../../common/errors/app-error';
import { AgentRunner } from './agent-runner.service';
import { isTerminalRunStatus, RunRecord } from './run-registry';

export const RUN_CANCELED_BY_OPERATOR = 'Run canceled by the gateway operator';
/**
 * How long the operator's cancel waits for the run to stop before answering with the run as it is then. The
 * work a run waits for on abort is bounded (a peer's CancelTask takes at most 5 s), so this is a safety net.
 */
export const RUN_CANCEL_WAIT_MS = 60_000;

/** The operator's cancel of one run (`POST /admin/runs/:runId/cancel`), the runtime's twin of the A2A task cancel. */
@Injectable()
export class RunCancelService {
  constructor(private readonly runner: AgentRunner) {}

  /** 404 for a run the runtime does not know (any more), 400 for one that is over — also when it finished before the abort reached it. */
  async cancel(runId: string): Promise<RunRecord> {
    const run = this.runner.getRun(runId);
    if (!run) throw notFound(`no run with id ${JSON.stringify(runId)} (the runtime keeps the last 2000 finished runs)`);
    if (!this.runner.abortRun(runId, RUN_CANCELED_BY_OPERATOR)) throw alreadyOver(this.runner.getRun(runId) ?? run);
    const stopped = await this.runner.waitForRun(runId, RUN_CANCEL_WAIT_MS);
    if (isTerminalRunStatus(stopped.status) && stopped.status !== 'aborted') throw alreadyOver(stopped);
    return stopped;
  }
}

function alreadyOver(run: RunRecord): Error {
  return badRequest(`run ${run.runId} is already over (${run.status})`);
}
