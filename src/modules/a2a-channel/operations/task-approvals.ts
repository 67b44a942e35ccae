import type { Logger } from '@nestjs/common';
import { isTerminalState } from '../../../common/a2a-protocol';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import type { Approval, ApprovalGate } from '../../approvals';
import type { RunHandle } from '../../runtime';
import type { Clock } from '../model/clock';
import { statusMessage, type TaskOrigin } from '../model/new-task';
import type { A2aTask } from '../model/task';
import { A2A_MESSAGES } from '../protocol/limits-and-messages';
import type { TaskStore } from '../store/task-store.port';
import { awaitingApprovalMessage, notWaitingForPeer } from '../tasks/task-approvals';
import { a2aRunInput } from '../tasks/task-run-input';

/** What the task service lends: its store and clock, and its own bookkeeping of the runs in flight here. */
export interface TaskApprovalHost {
  store: TaskStore;
  clock: Clock;
  logger: Logger;
  closing(): boolean;
  /** The task's run is in flight in this process. */
  runsHere(taskId: string): boolean;
  /** Resolves once the task has its row (a deferred one is written now). */
  written(taskId: string): Promise<unknown>;
  /** Answers the task's blocked callers with it as it is. */
  release(task: A2aTask): void;
  /** Starts the resumed run of an approval's session for the task; undefined when the runtime cannot resume. */
  resume(
    approval: Approval,
    input: { meta?: Record<string, unknown>; perRunTools?: readonly string[]; extraSystemPrompt?: string },
  ): RunHandle | undefined;
  /** Settles the task from a run it now belongs to (and lets request_input find it). */
  adopt(taskId: string, handle: RunHandle): void;
}

/**
 * A2A tasks whose run waits for an operator to approve a tool call (docs/approvals.md#a2a-tasks): INPUT_REQUIRED while
 * it waits (blocked callers answered), WORKING again once decided; kept through a restart and resumed by the decision;
 * a peer's message to such a task refused; a CancelTask of one whose run a restart took withdraws the request.
 */
export class TaskApprovals {
  /** Tasks waiting for an operator, by task id. */
  private readonly waiting = new Map<string, Approval>();

  constructor(
    private readonly gate: ApprovalGate | undefined,
    private readonly host: TaskApprovalHost,
  ) {}

  /** At the start, before unsettled tasks are failed: the tasks whose request is still pending (they are kept). */
  async start(): Promise<ReadonlySet<string>> {
    if (!this.gate) return new Set();
    for (const approval of await this.gate.list({ state: 'pending', limit: 10_000 })) {
      if (approval.taskId) this.waiting.set(approval.taskId, approval);
    }
    this.gate.onChange((approval) => void this.changed(approval));
    this.gate.addResumer((approval) => this.resumed(approval));
    return new Set(this.waiting.keys());
  }

  /** Why a peer's message to the task is refused, when the task waits for an operator rather than for the peer. */
  refusalOfInput(taskId: string): string | undefined {
    const approval = this.waiting.get(taskId);
    return approval && notWaitingForPeer(approval);
  }

  /** A cancel of a task whose waiting run is gone: the request withdrawn, the task CANCELED. Undefined: not such a task. */
  async cancelWithoutRun(task: A2aTask, reason: string): Promise<A2aTask | undefined> {
    const approval = this.waiting.get(task.id);
    if (!approval || !this.gate) return undefined;
    const { store, clock } = this.host;
    await this.gate.withdraw(approval.id, 'cancel');
    this.waiting.delete(task.id);
    const canceled = await store.transition(task.id, { state: 'TASK_STATE_CANCELED', statusMessage: statusMessage(reason) }, clock.now());
    if (!canceled) throw new AppError(ErrorCode.TaskNotCancelable, A2A_MESSAGES.taskNotCancelable, [{ taskId: task.id }]);
    return canceled;
  }

  private async changed(approval: Approval): Promise<void> {
    const taskId = approval.taskId;
    const { store, clock, logger } = this.host;
    if (!taskId || !this.host.runsHere(taskId) || this.host.closing()) return;
    try {
      if (approval.state === 'pending') {
        // The peer is about to be told about the task: it needs its row.
        await this.host.written(taskId);
        this.waiting.set(taskId, approval);
        const change = { state: 'TASK_STATE_INPUT_REQUIRED' as const, statusMessage: awaitingApprovalMessage(approval) };
        const interrupted = await store.transition(taskId, change, clock.now());
        if (interrupted) this.host.release(interrupted);
        return;
      }
      if (this.waiting.get(taskId)?.id !== approval.id) return;
      this.waiting.delete(taskId);
      // A withdrawn request belongs to a run that was aborted: its settle says how the task ends.
      if (approval.state !== 'withdrawn') await store.transition(taskId, { state: 'TASK_STATE_WORKING' }, clock.now());
    } catch (err) {
      logger.error(`A2A task ${taskId}: could not record approval ${approval.id} (${approval.state}): ${(err as Error).message}`);
    }
  }

  /**
   * After a restart, the decision on a call a task's run waited for: a new run of the task's session answers it and the
   * turn goes on; the task is WORKING with that run and settles from it. False when the task is over (canceled,
   * expired): nothing goes on. Undefined for an approval of no task (another resumer's).
   */
  private async resumed(approval: Approval): Promise<string | false | undefined> {
    if (!approval.taskId) return undefined;
    this.waiting.delete(approval.taskId);
    const { store, clock } = this.host;
    const task = await store.get(approval.taskId);
    if (!task || isTerminalState(task.state) || this.host.closing()) return false;
    const origin: TaskOrigin = {
      id: task.id,
      peer: task.peer,
      contextId: task.contextId,
      messageId: '',
      text: '',
      createdAt: task.createdAt,
    };
    const { meta, perRunTools, extraSystemPrompt } = a2aRunInput(origin, approval.sessionKey, { text: '' }, false, undefined);
    const handle = this.host.resume(approval, { meta, perRunTools, extraSystemPrompt });
    if (!handle) return undefined;
    await store.transition(task.id, { state: 'TASK_STATE_WORKING', runId: handle.runId }, clock.now());
    this.host.adopt(task.id, handle);
    return handle.runId;
  }
}
