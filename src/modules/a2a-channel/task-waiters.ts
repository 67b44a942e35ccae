import type { A2aTask } from './task-model';

type Waiter = (task: A2aTask) => void;

/**
 * Blocked SendMessage callers per task. A caller is answered when `release` is called with the task — the task
 * service does that when the task settles or is interrupted (INPUT_REQUIRED), expires, or the gateway shuts down —
 * or, after `timeoutMs`, with the task as it is then (the run goes on).
 */
export class TaskWaiters {
  private readonly waiters = new Map<string, Set<Waiter>>();

  /** `reread` fetches the task as it is when the wait times out. */
  wait(current: A2aTask, timeoutMs: number, reread: () => Promise<A2aTask | undefined>): Promise<A2aTask> {
    return new Promise((resolve) => {
      let set = this.waiters.get(current.id);
      if (!set) this.waiters.set(current.id, (set = new Set()));
      const waiters = set;
      const finish: Waiter = (task) => {
        clearTimeout(timer);
        waiters.delete(finish);
        if (!waiters.size && this.waiters.get(current.id) === waiters) this.waiters.delete(current.id);
        resolve(task);
      };
      const timer = setTimeout(() => {
        void reread().then(
          (task) => finish(task ?? current),
          () => finish(current),
        );
      }, timeoutMs);
      waiters.add(finish);
    });
  }

  /** Answers every caller blocked on this task with it. */
  release(task: A2aTask): void {
    for (const waiter of [...(this.waiters.get(task.id) ?? [])]) waiter(task);
  }

  /** Tasks that have blocked callers (shutdown answers them all). */
  taskIds(): string[] {
    return [...this.waiters.keys()];
  }
}
