import { Logger } from '@nestjs/common';
import { A2A_METHODS } from '../../../common/a2a-protocol';
import { logsAt } from '../../../common/logging/log-level-gate';
import type { A2aBinding, GatewayMetrics } from '../../metrics';
import type { A2aOperation } from '../protocol/methods';
import type { A2aRequest } from './a2a-request';
import type { A2aCallOutcome } from './call-outcome';

/** The A2A 1.0 name of each operation: the `method` of the request's line and series, whichever name was called. */
const METHOD_OF: Record<A2aOperation, string> = {
  ...A2A_METHODS,
  createPushConfig: 'CreateTaskPushNotificationConfig',
  getPushConfig: 'GetTaskPushNotificationConfig',
  listPushConfigs: 'ListTaskPushNotificationConfigs',
  deletePushConfig: 'DeleteTaskPushNotificationConfig',
};

/** `TASK_STATE_INPUT_REQUIRED` → `input_required`; a 0.3 state (`input-required`) the same way. */
export function taskStateLabel(state: string): string {
  return state
    .replace(/^TASK_STATE_/, '')
    .replace(/-/g, '_')
    .toLowerCase();
}

/**
 * One info line and one observation per A2A request (docs/operations.md): method, binding, peer, the task and its
 * state when the answer is a task, the code (`OK` or the error's), the duration. Written in the request's log
 * context, so the line carries its `reqId` — as do the lines of the run it started.
 */
export class A2aRequestLog {
  private readonly logger = new Logger('a2a');

  constructor(private readonly metrics: GatewayMetrics) {}

  /** `request`: the method as called and its operation, read once by the binding (a2a-request.ts). */
  served(
    peer: string,
    { called, operation }: Pick<A2aRequest, 'called' | 'operation'>,
    binding: A2aBinding,
    outcome: A2aCallOutcome,
    startedAt: number,
  ): void {
    const durationMs = Math.round((performance.now() - startedAt) * 100) / 100;
    const method = operation ? METHOD_OF[operation] : 'other';
    const code = outcome.ok ? 'OK' : outcome.error.code;
    this.metrics.a2aRequest(method, binding, code, durationMs / 1000);
    if (!logsAt('info')) return;
    // The task the call answered with (SendMessage, GetTask, CancelTask), as the domain has it: its id and state as stored.
    const task = outcome.ok && 'result' in outcome && 'task' in outcome.result ? outcome.result.task : undefined;
    const state = task ? taskStateLabel(task.state) : outcome.ok && 'stream' in outcome ? 'streaming' : null;
    this.logger.log(
      { event: 'a2a.request', method, called, binding, peer, taskId: task?.id ?? null, state, code, durationMs },
      `A2A ${method} from ${peer} (${binding}): ${code}${task ? `, task ${task.id} ${state}` : ''} in ${durationMs} ms`,
    );
  }
}
