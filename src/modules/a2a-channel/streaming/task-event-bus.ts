import { Logger } from '@nestjs/common';
import type { RemoteTaskEventSubscription, TaskEventFanout } from '../../../common/coordination/task-event-fanout';
import type { TaskEvent } from '../model/task-events';

/** How often a task whose mark as followed failed (PostgreSQL) is marked again while it is listened to. */
const FOLLOW_RETRY_MS = 1_000;

/** What a stream is told: each event of its task, and that no more will come (the gateway is shutting down). */
export interface TaskEventListener {
  event(event: TaskEvent): void;
  ended(): void;
  /** Events may have been lost on the way from another replica: read the task's events from the store again. */
  resync?(): void;
}

/**
 * The live half of task streams: the task store publishes every event here once its commit is on disk
 * (A2aTaskStore's sink), and each open stream of the task hears it, in commit order. Nothing is kept: a stream
 * that was not listening reads what it missed from the store (TaskEventStream).
 *
 * With tasks shared by replicas (`connect`) in a cluster, the first stream of a task also subscribes to the task's
 * events from the other replicas, which arrive here like local ones; a single process has no fan-out, and pays nothing
 * for it.
 */
export class TaskEventBus {
  private readonly listeners = new Map<string, Set<TaskEventListener>>();
  private remote?: () => TaskEventFanout | undefined;
  private follow?: (taskId: string) => Promise<void>;
  private readonly subscriptions = new Map<string, RemoteTaskEventSubscription>();

  readonly publish = (events: readonly TaskEvent[]): void => {
    for (const event of events) {
      const set = this.listeners.get(event.taskId);
      if (set) for (const listener of [...set]) listener.event(event);
    }
  };

  /**
   * From now on streams also hear the events other replicas commit (the store is shared: docs/decisions.md), through
   * the fan-out `remote` answers when a task's first stream starts (undefined: no cluster, or not joined yet).
   * `follow` tells the task's writers, wherever they run, to publish its events from then on.
   */
  connect(remote: () => TaskEventFanout | undefined, follow?: (taskId: string) => Promise<void>): void {
    this.remote = remote;
    this.follow = follow;
  }

  /** Starts hearing `taskId`'s events; the returned function stops. */
  listen(taskId: string, listener: TaskEventListener): () => void {
    let set = this.listeners.get(taskId);
    if (!set) {
      this.listeners.set(taskId, (set = new Set()));
      const remote = this.remote?.();
      if (remote) this.subscribeRemote(taskId, remote);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size || this.listeners.get(taskId) !== set) return;
      this.listeners.delete(taskId);
      this.subscriptions.get(taskId)?.stop();
      this.subscriptions.delete(taskId);
    };
  }

  /**
   * Settles once events of `taskId` committed on other replicas from now on will be heard; undefined when nothing
   * is to be waited for (one process, or nobody listens). A stream reads the store only after it, so an event
   * committed elsewhere is in the store's answer or heard afterwards.
   */
  ready(taskId: string): Promise<void> | undefined {
    return this.subscriptions.get(taskId)?.ready;
  }

  /** Tells every listener no more events will come (shutdown, after the last writes were published). */
  endAll(): void {
    const all = [...this.listeners.values()].flatMap((set) => [...set]);
    this.listeners.clear();
    for (const subscription of this.subscriptions.values()) subscription.stop();
    this.subscriptions.clear();
    for (const listener of all) listener.ended();
  }

  /** Tasks someone is listening to (tests, status). */
  get listenedTasks(): number {
    return this.listeners.size;
  }

  private async followLater(taskId: string, follow: (taskId: string) => Promise<void>): Promise<void> {
    while (this.listeners.has(taskId)) {
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_RETRY_MS).unref());
      if (!this.listeners.has(taskId)) return;
      try {
        await follow(taskId);
      } catch {
        continue;
      }
      for (const listener of [...(this.listeners.get(taskId) ?? [])]) listener.resync?.();
      return;
    }
  }

  private subscribeRemote(taskId: string, remote: TaskEventFanout): void {
    const subscription = remote.subscribe(taskId, {
      events: this.publish,
      resync: () => {
        for (const listener of [...(this.listeners.get(taskId) ?? [])]) listener.resync?.();
      },
    });
    // Ready once marked followed as well: every event committed after the mark is published, every one before it
    // is in the store when the stream reads it after `ready`. A mark that failed is tried again while the task is
    // listened to, and the streams read the store once it is made.
    const follow = this.follow;
    const followed = follow?.(taskId).catch((err: Error) => {
      new Logger('a2a').warn(`task ${taskId} could not be marked followed (${err.message}); trying again every second`);
      void this.followLater(taskId, follow);
    });
    const ready = followed ? Promise.all([followed, subscription.ready]).then(() => undefined) : subscription.ready;
    this.subscriptions.set(taskId, { ready, stop: () => subscription.stop() });
  }
}
