import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { TaskInputReply } from '../../../common/coordination/task-event-fanout';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { ClusterService } from '../../cluster';
import { A2A_MESSAGES, REMOTE_INPUT_TIMEOUT_MS } from '../protocol/limits-and-messages';
import { Doorbell } from './doorbell';
import { forwardedAnswer, type PeerAnswer, readForwardedAnswer } from './peer-answer';
import { TaskEventBus } from '../streaming/task-event-bus';
import { closesStream } from '../model/task-events';
import type { A2aTask } from '../model/task';
import { TASK_STORE, type TaskStore } from '../store/task-store.port';

/**
 * Answers to INPUT_REQUIRED across replicas (docs/decisions.md#task-events-across-replicas): the run that asked waits
 * in the replica that owns the task, so a replica that receives the answer passes it to the task row's owner, the way
 * a CancelTask is passed (remote-task-cancels.ts), and the owner delivers it to its run and replies. The replica that
 * was asked then answers its caller as the owner would: the task after the answer, and — for a blocking SendMessage —
 * once it is over or asks again (an event that closes a stream, heard through the task's shared events). No replica
 * subscribed to the owner, or no reply within REMOTE_INPUT_TIMEOUT_MS, is UnsupportedOperationError with words that
 * say which.
 */
@Injectable()
export class RemoteTaskInputs implements OnModuleDestroy {
  private stopServing?: () => void;

  constructor(
    private readonly cluster: ClusterService,
    @Inject(TASK_STORE) private readonly store: TaskStore,
    private readonly bus: TaskEventBus,
  ) {}

  /** Hears the answers other replicas received for this replica's waiting runs (after the store is open; a no-op alone). */
  serve(deliverHere: (taskId: string, answer: PeerAnswer) => Promise<TaskInputReply>): void {
    const fanout = this.cluster.taskEventFanout();
    const owner = this.store.owner;
    if (!fanout || !owner) return;
    this.stopServing = fanout.serveInputs(owner, (input) => {
      const answer = readForwardedAnswer(input.answer);
      if (!answer) return Promise.resolve({ delivered: false, code: ErrorCode.InvalidParams, message: 'the forwarded answer was garbled' });
      return deliverHere(input.taskId, answer);
    });
  }

  /**
   * `task` waits for input and no run of this process asked: its owner is given the answer. Undefined when no other
   * replica can be asked (a single process, SQLite tasks, or a row of this replica: its run is gone). With `blockMs`,
   * waits that long for the task to settle or ask again; otherwise answers with the task once the owner took it.
   */
  async forward(task: A2aTask, answer: PeerAnswer, blockMs: number | undefined): Promise<A2aTask | undefined> {
    const fanout = this.cluster.taskEventFanout();
    const owner = fanout && (await this.store.ownerOf?.(task.id));
    if (!fanout || !owner || owner === this.store.owner) return undefined;
    const bell = new Doorbell();
    let ended = false;
    // Listening before the answer goes out, so the owner's next state change cannot pass unheard.
    const stopListening =
      blockMs === undefined
        ? undefined
        : this.bus.listen(task.id, {
            event: (event) => {
              if (event.closes) bell.ring();
            },
            ended: () => {
              ended = true;
              bell.ring();
            },
          });
    try {
      if (stopListening) await this.bus.ready(task.id);
      const reply = await fanout.forwardInput(owner, { taskId: task.id, answer: forwardedAnswer(answer) }, REMOTE_INPUT_TIMEOUT_MS);
      if ('unanswered' in reply) {
        const message = reply.unanswered === 'no-owner' ? A2A_MESSAGES.inputOwnerGone : A2A_MESSAGES.inputNoAnswer;
        throw new AppError(ErrorCode.UnsupportedOperation, message, [{ taskId: task.id }]);
      }
      if (!reply.delivered) throw new AppError(knownCode(reply.code), reply.message, [{ taskId: task.id }]);
      let current = (await this.store.get(task.id)) ?? task;
      if (blockMs === undefined) return current;
      for (const deadline = Date.now() + blockMs; !ended && !closesStream(current.state);) {
        const rung = await bell.wait(deadline - Date.now());
        // At the deadline too: the task as it is then (an event lost on the way is read from the store).
        if (!ended) current = (await this.store.get(task.id)) ?? current;
        if (!rung) break;
      }
      return current;
    } finally {
      stopListening?.();
    }
  }

  onModuleDestroy(): void {
    this.stopServing?.();
  }
}

/** The owner's refusal as an error code of this gateway (the owner runs the same code; anything else is internal). */
function knownCode(code: string): ErrorCode {
  return (Object.values(ErrorCode) as string[]).includes(code) ? (code as ErrorCode) : ErrorCode.Internal;
}
