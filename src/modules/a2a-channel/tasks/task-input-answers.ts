import type { TaskInputReply } from '../../../common/coordination/task-event-fanout';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import type { A2aAttachments } from '../attachments/attachments';
import { A2A_MESSAGES } from '../protocol/limits-and-messages';
import type { Clock } from '../model/clock';
import type { PeerAnswer } from '../replicas/peer-answer';
import type { RemoteTaskInputs } from '../replicas/remote-task-inputs';
import { MAX_INPUT_REQUESTS, TaskInputRequests } from './task-input';
import { statusMessage } from '../model/new-task';
import type { ToolResult } from '../../runtime';
import type { A2aTask } from '../model/task';
import type { TaskStore } from '../store/task-store.port';

/** A delivered answer: the task after it, and whether the caller is to wait for it here (this process runs it). */
export interface DeliveredAnswer {
  task: A2aTask;
  waitHere: boolean;
}

/**
 * Answers to INPUT_REQUIRED (a SendMessage with the taskId): delivered to the run of this process that waits for
 * one, or — when no run here asked and the task is another replica's — forwarded to it (remote-task-inputs.ts), which
 * delivers it the same way (`deliverForwarded`). Either way the task is WORKING again, with the peer's message in its
 * history, before the run continues.
 */
export class TaskInputAnswers {
  /** Runs of this process waiting for a peer's answer (request_input). */
  readonly requests = new TaskInputRequests();

  constructor(
    private readonly store: TaskStore,
    private readonly attachments: A2aAttachments,
    private readonly clock: Clock,
    private readonly remote?: Pick<RemoteTaskInputs, 'forward'>,
  ) {}

  /**
   * request_input's question, for the run of a stored task: the task becomes INPUT_REQUIRED with the question as its
   * status message (`asked` answers the blocked callers with it), and the run waits — at most `timeoutMs`, or until
   * `signal` aborts — for the peer's SendMessage with the taskId, whose text is the tool's result. Without an answer the
   * task is WORKING again and the model decides what to do without one.
   */
  async ask(
    taskId: string,
    question: string,
    wait: { timeoutMs: number; signal: AbortSignal; asked: (task: A2aTask) => void },
  ): Promise<ToolResult> {
    if (!this.requests.allowAnother(taskId)) {
      return { status: 'error', error: `this task already asked for input ${MAX_INPUT_REQUESTS} times; finish with what you have` };
    }
    const asking = await this.store.transition(
      taskId,
      { state: 'TASK_STATE_INPUT_REQUIRED', statusMessage: statusMessage(question) },
      this.clock.now(),
    );
    if (!asking) return { status: 'error', error: 'the task is already over' };
    const answered = this.requests.wait(taskId, wait.timeoutMs, wait.signal);
    wait.asked(asking);
    const outcome = await answered;
    if ('answer' in outcome) return { status: 'ok', answer: outcome.answer };
    if ('aborted' in outcome) return { status: 'error', error: 'the run was aborted while it waited for input' };
    await this.store.transition(taskId, { state: 'TASK_STATE_WORKING' }, this.clock.now());
    return {
      status: 'timeout',
      error: `the peer gave no answer within ${wait.timeoutMs} ms (channels.a2a.inputTimeoutMs); continue without it`,
    };
  }

  /**
   * `runsHere`: this process runs the task (so no other replica waits for its answer). `blockMs`: how long a forwarded
   * answer waits for the task to settle or ask again, as a caller here waits on the task's waiters. A task no run
   * waits for is -32004.
   */
  async deliver(task: A2aTask, answer: PeerAnswer, options: { runsHere: boolean; blockMs?: number }): Promise<DeliveredAnswer> {
    // Claimed before anything is awaited, so of two answers racing exactly one continues the run.
    const here = task.state === 'TASK_STATE_INPUT_REQUIRED' ? this.deliverHere(task, answer) : undefined;
    if (here) {
      const working = await here;
      return working ? { task: working, waitHere: true } : { task: (await this.store.get(task.id)) ?? task, waitHere: false };
    }
    // No run here waits for it: the one that asked may be on the replica that owns the task.
    const forwarded =
      task.state === 'TASK_STATE_INPUT_REQUIRED' && !options.runsHere
        ? await this.remote?.forward(task, answer, options.blockMs)
        : undefined;
    if (forwarded) return { task: forwarded, waitHere: false };
    throw new AppError(ErrorCode.UnsupportedOperation, A2A_MESSAGES.notWaitingForInput, [{ taskId: task.id }]);
  }

  /** An answer another replica received for a run of this process; the reply goes back to it. */
  async deliverForwarded(taskId: string, answer: PeerAnswer): Promise<TaskInputReply> {
    const task = await this.store.get(taskId);
    const here = task?.state === 'TASK_STATE_INPUT_REQUIRED' ? this.deliverHere(task, answer) : undefined;
    if (!here) return { delivered: false, code: ErrorCode.UnsupportedOperation, message: A2A_MESSAGES.notWaitingForInput };
    await here;
    return { delivered: true };
  }

  /** Undefined, at once, when no run of this process waits for the task; else the task once it is WORKING again. */
  private deliverHere(task: Pick<A2aTask, 'id' | 'agentId'>, answer: PeerAnswer): Promise<A2aTask | undefined> | undefined {
    const deliver = this.requests.claim(task.id);
    if (!deliver) return undefined;
    return (async () => {
      const text = answer.files.length
        ? (await this.attachments.agentMessage(task.agentId ?? '', task.id, answer.text, answer.files)).text
        : answer.text;
      const peerMessage = { messageId: answer.messageId, text: answer.text };
      const working = await this.store.transition(task.id, { state: 'TASK_STATE_WORKING', peerMessage }, this.clock.now());
      // Delivered after the WORKING write, so the run's next state change always lands after it.
      deliver(text);
      return working;
    })();
  }
}
