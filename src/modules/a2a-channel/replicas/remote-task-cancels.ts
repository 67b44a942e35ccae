import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { isTerminalState } from '../../../common/a2a-protocol';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { ClusterService } from '../../cluster';
import { A2A_MESSAGES, REMOTE_CANCEL_TIMEOUT_MS } from '../protocol/limits-and-messages';
import { Doorbell } from './doorbell';
import { TaskEventBus } from '../streaming/task-event-bus';
import type { A2aTask } from '../model/task';
import { TASK_STORE, type TaskStore } from '../store/task-store.port';

/** The answer to a CancelTask for a task whose run no one here can reach (a single process, or SQLite tasks). */
export function cancelUnsupported(taskId: string): AppError {
  return new AppError(ErrorCode.UnsupportedOperation, A2A_MESSAGES.cancelUnsupported, [{ taskId }]);
}

/**
 * CancelTask across replicas (docs/decisions.md#task-events-across-replicas): a replica that receives one for a task
 * whose run is elsewhere asks the task row's owner to stop it, and answers with the task once the owner's CANCELED
 * event arrives through the fan-out — or with TaskNotCancelableError when no replica heard the request, or none ended
 * the task within REMOTE_CANCEL_TIMEOUT_MS. The owner is addressed by the row's `owner` value alone, whatever it is.
 */
@Injectable()
export class RemoteTaskCancels implements OnModuleDestroy {
  private stopServing?: () => void;

  constructor(
    private readonly cluster: ClusterService,
    @Inject(TASK_STORE) private readonly store: TaskStore,
    private readonly bus: TaskEventBus,
  ) {}

  /** Hears the cancels other replicas received for this replica's tasks (after the store is open; a no-op alone). */
  serve(stopHere: (taskId: string, reason: string) => void): void {
    const fanout = this.cluster.taskEventFanout();
    const owner = this.store.owner;
    if (fanout && owner) this.stopServing = fanout.serveCancels(owner, stopHere);
  }

  /** `task` is not running in this process: its owner is asked to stop it. */
  async cancel(task: A2aTask, reason: string): Promise<A2aTask> {
    const fanout = this.cluster.taskEventFanout();
    const owner = fanout && (await this.store.ownerOf?.(task.id));
    // Its own row, not running here: left over from before a restart, and no one else runs it.
    if (!fanout || !owner || owner === this.store.owner) throw cancelUnsupported(task.id);
    const refuse = (message: string) => new AppError(ErrorCode.TaskNotCancelable, message, [{ taskId: task.id }]);
    // Listening before asking, so the owner's terminal event cannot pass unheard between the two.
    const bell = new Doorbell();
    const stopListening = this.bus.listen(task.id, {
      event: (event) => {
        if (event.closes) bell.ring();
      },
      ended: () => bell.ring(),
    });
    try {
      await this.bus.ready(task.id);
      let current = await this.store.get(task.id);
      if (current && !isTerminalState(current.state) && !(await fanout.requestCancel(owner, task.id, reason)))
        throw refuse(A2A_MESSAGES.cancelOwnerGone);
      for (const deadline = Date.now() + REMOTE_CANCEL_TIMEOUT_MS; current && !isTerminalState(current.state);) {
        if (!(await bell.wait(deadline - Date.now()))) throw refuse(A2A_MESSAGES.cancelNoAnswer);
        current = await this.store.get(task.id);
      }
      if (current?.state !== 'TASK_STATE_CANCELED') throw refuse(A2A_MESSAGES.taskNotCancelable);
      return current;
    } finally {
      stopListening();
    }
  }

  onModuleDestroy(): void {
    this.stopServing?.();
  }
}
