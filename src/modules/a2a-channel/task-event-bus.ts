import type { TaskEvent } from './task-events';

/** What a stream is told: each event of its task, and that no more will come (the gateway is shutting down). */
export interface TaskEventListener {
  event(event: TaskEvent): void;
  ended(): void;
}

/**
 * The live half of task streams: the task store publishes every event here once its commit is on disk
 * (A2aTaskStore's sink), and each open stream of the task hears it, in commit order. Nothing is kept: a stream
 * that was not listening reads what it missed from the store (TaskEventStream).
 */
export class TaskEventBus {
  private readonly listeners = new Map<string, Set<TaskEventListener>>();

  readonly publish = (events: readonly TaskEvent[]): void => {
    for (const event of events) {
      const set = this.listeners.get(event.taskId);
      if (set) for (const listener of [...set]) listener.event(event);
    }
  };

  /** Starts hearing `taskId`'s events; the returned function stops. */
  listen(taskId: string, listener: TaskEventListener): () => void {
    let set = this.listeners.get(taskId);
    if (!set) this.listeners.set(taskId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (!set.size && this.listeners.get(taskId) === set) this.listeners.delete(taskId);
    };
  }

  /** Tells every listener no more events will come (shutdown, after the last writes were published). */
  endAll(): void {
    const all = [...this.listeners.values()].flatMap((set) => [...set]);
    this.listeners.clear();
    for (const listener of all) listener.ended();
  }

  /** Tasks someone is listening to (tests, status). */
  get listenedTasks(): number {
    return this.listeners.size;
  }
}
