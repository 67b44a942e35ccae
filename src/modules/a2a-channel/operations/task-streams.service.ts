import { Inject, Injectable } from '@nestjs/common';
import { type A2aWireVersion, isTerminalState } from '../../../common/a2a-protocol';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { A2A_MESSAGES } from '../protocol/limits-and-messages';
import { A2aTaskService } from './task.service';
import { invalidParams } from '../protocol/errors';
import type { SendMessageInput, TaskIdInput } from '../protocol/method-params';
import { TaskEventBus } from '../streaming/task-event-bus';
import { TaskEventStream } from '../streaming/task-event-stream';
import { taskSnapshotBody } from '../model/task-events';
import { type A2aTask, toWireTask } from '../model/task';
import { TASK_STORE, type TaskStore } from '../store/task-store.port';

/**
 * SendStreamingMessage and SubscribeToTask (docs/a2a-streaming.md): a task's events as a stream — the task first,
 * then its status and artifact updates until it is over or waits for the peer. A client that lost its connection
 * resumes with `Last-Event-ID` and gets what it missed from the store, then the rest live.
 */
@Injectable()
export class A2aTaskStreams {
  constructor(
    @Inject(A2aTaskService) private readonly tasks: Pick<A2aTaskService, 'accept' | 'ownTask'>,
    @Inject(TASK_STORE) private readonly store: TaskStore,
    private readonly bus: TaskEventBus,
  ) {}

  /** The message is accepted as SendMessage does (same checks, same errors), its task streamed from its first state. */
  async sendStreamingMessage(peer: string, input: SendMessageInput, wire: A2aWireVersion = '1.0'): Promise<TaskEventStream> {
    const task = await this.tasks.accept(peer, input, { wait: false, stream: true, wire });
    return this.fromSnapshot(task, input.historyLength);
  }

  /**
   * Without `lastEventId`: the task now, then its events; a task that is over is -32004 (GetTask reads it). With it:
   * the events after that number (a task that is over included: its last events are replayed, then the stream ends).
   * Another peer's or an unknown task is -32001, as for GetTask.
   */
  async subscribeToTask(peer: string, { id }: TaskIdInput, lastEventId?: string): Promise<TaskEventStream> {
    const task = await this.tasks.ownTask(peer, id);
    if (lastEventId === undefined) {
      if (isTerminalState(task.state)) {
        throw new AppError(ErrorCode.UnsupportedOperation, A2A_MESSAGES.subscribeToFinished, [{ taskId: task.id }]);
      }
      return this.fromSnapshot(task, undefined);
    }
    const after = readLastEventId(lastEventId, task.events ?? 0);
    return new TaskEventStream({ taskId: task.id, after, closedAtOpen: isTerminalState(task.state) }, this.bus, this.replay);
  }

  private fromSnapshot(task: A2aTask, historyLength: number | undefined): TaskEventStream {
    const after = task.events ?? 0;
    const over = isTerminalState(task.state);
    const snapshot = { id: after, body: taskSnapshotBody(toWireTask(task, historyLength)), closes: over };
    return new TaskEventStream({ taskId: task.id, snapshot, after, closedAtOpen: over }, this.bus, this.replay);
  }

  private readonly replay = (taskId: string, after: number) => this.store.eventsAfter(taskId, after);
}

/** `Last-Event-ID`: the number of an event of this task (0: before the first). */
function readLastEventId(raw: string, last: number): number {
  const n = /^\d{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isSafeInteger(n)) throw invalidParams('Last-Event-ID must be the number of an event of this task (a non-negative integer)');
  if (n > last) throw invalidParams(`Last-Event-ID ${n} is after the task's last event (${last})`);
  return n;
}
