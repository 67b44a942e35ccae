/**
 * The port through which replicas that share a task store pass each other the live events of their tasks
 * (docs/decisions.md#task-events-across-replicas). A replica keeps delivering its own events in process; this
 * carries them to streams open on the other replicas, and carries a CancelTask, or a peer's answer to a task's
 * INPUT_REQUIRED, to the replica that runs the task.
 * A single process needs none of it: `IN_PROCESS_TASK_EVENT_FANOUT` has no one to tell. With gateway.cluster the
 * cluster module implements it on Redis pub/sub.
 */

/** One committed event of a task. Its number orders it and lets a receiver drop what it already has. */
export interface FannedTaskEvent {
  readonly taskId: string;
  /** 1-based per task, with no gaps: a receiver that sees n + 2 after n knows it missed one. */
  readonly n: number;
  readonly body: string;
  readonly closes: boolean;
}

/** What a subscription hears from the other replicas. */
export interface RemoteTaskEventListener {
  /** Events of the task committed elsewhere, in the order their replica published them. */
  events(events: readonly FannedTaskEvent[]): void;
  /** Some events may have been lost (the connection was down): read the task's events from the store again. */
  resync(): void;
}

export interface RemoteTaskEventSubscription {
  /** Settles once events published from now on will be heard (or the attempt failed; a later resync covers it). */
  readonly ready: Promise<void>;
  stop(): void;
}

/** A peer's answer to a task's INPUT_REQUIRED, for the replica whose run asked. */
export interface ForwardedTaskInput {
  readonly taskId: string;
  /** The answer as the receiving replica read it, as JSON: the owner delivers it as if it had received it itself. */
  readonly answer: unknown;
}

/** The owner's reply: delivered to the waiting run, or refused with an error code (common/errors) and its message. */
export type TaskInputReply = { readonly delivered: true } | { readonly delivered: false; readonly code: string; readonly message: string };

/** How a forwarded answer ended: the owner's reply, or none — no replica heard it, or none replied in time. */
export type TaskInputForwarding = TaskInputReply | { readonly unanswered: 'no-owner' | 'no-reply' };

export interface TaskEventFanout {
  /** Events this replica committed, for the other replicas' streams. Never throws, never blocks the caller. */
  publish(events: readonly FannedTaskEvent[]): void;
  /** Starts hearing the events of `taskId` that other replicas commit. */
  subscribe(taskId: string, listener: RemoteTaskEventListener): RemoteTaskEventSubscription;
  /** Asks the replica whose task rows carry `owner` to stop its run of `taskId`; resolves whether one heard the request. */
  requestCancel(owner: string, taskId: string, reason: string): Promise<boolean>;
  /** Hears the cancel requests addressed to `owner` (this replica's owner value); the returned function stops. */
  serveCancels(owner: string, handler: (taskId: string, reason: string) => void): () => void;
  /** Passes an answer to the replica whose task rows carry `owner` and waits at most `timeoutMs` for its reply. */
  forwardInput(owner: string, input: ForwardedTaskInput, timeoutMs: number): Promise<TaskInputForwarding>;
  /** Hears the answers addressed to `owner`; the handler's reply goes back to the replica that forwarded. */
  serveInputs(owner: string, handler: (input: ForwardedTaskInput) => Promise<TaskInputReply>): () => void;
  /**
   * Whether every replica marks in the task store the tasks it follows before it listens, so the events of an
   * unmarked task need not be published; false while a replica of an earlier version (or one not yet asked) may
   * listen without a mark. Absent: false.
   */
  everyReplicaMarksFollows?(): boolean;
}

const NOTHING_TO_STOP = (): void => undefined;

/** One process: every stream of a task is in it, so there is no one else to tell and no one else to ask. */
export const IN_PROCESS_TASK_EVENT_FANOUT: TaskEventFanout = {
  publish: NOTHING_TO_STOP,
  subscribe: () => ({ ready: Promise.resolve(), stop: NOTHING_TO_STOP }),
  requestCancel: () => Promise.resolve(false),
  serveCancels: () => NOTHING_TO_STOP,
  forwardInput: () => Promise.resolve({ unanswered: 'no-owner' }),
  serveInputs: () => NOTHING_TO_STOP,
  everyReplicaMarksFollows: () => true,
};
