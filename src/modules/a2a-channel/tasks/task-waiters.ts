import type { A2aTask } from '../model/task';

interface Waiter {
  settle(task: A2aTask): void;
  fail(error: Error): void;
}

/**
 * Blocked SendMessage callers per task. A caller is answered when `release` is called with the task — the task
 * service does that when the task settles or is interrupted (INPUT_REQUIRED), expires, or the gateway shuts down —
 * or, after `timeoutMs`, with the task as it is then (the run goes on); `fail` answers them with an error (the
 * task could not be stored).
 */
export class TaskWaiters {
  private readonly waiters = new Map<string, Set<Waiter>>();

  /** `reread` fetches the task as it is when the wait times out; if it rejects, so does the wait. */
  wait(current: A2aTask, timeoutMs: number, reread: () => Promise<A2aTask | undefined>): Promise<A2aTask> {
    return new Promise((resolve, reject) => {
      let set = this.waiters.get(current.id);
      if (!set) this.waiters.set(current.id, (set = new Set()));
      const waiters = set;
      const done = () => {
        clearTimeout(timer);
        waiters.delete(finish);
        if (!waiters.size && this.waiters.get(current.id) === waiters) this.waiters.delete(current.id);
      };
      const finish: Waiter = {
        settle: (task) => {
          done();
          resolve(task);
        },
        fail: (error) => {
          done();
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        void reread().then(
          (task) => finish.settle(task ?? current),
          (error: Error) => finish.fail(error),
        );
      }, timeoutMs);
      waiters.add(finish);
    });
  }

  /** Answers every caller blocked on this task with it. */
  release(task: A2aTask): void {
    for (const waiter of [...(this.waiters.get(task.id) ?? [])]) waiter.settle(task);
  }

  /** Answers every caller blocked on this task with `error`. */
  fail(taskId: string, error: Error): void {
    for (const waiter of [...(this.waiters.get(taskId) ?? [])]) waiter.fail(error);
  }

  /** Answers every blocked caller with its task as `read` finds it now (shutdown); one that is not found keeps waiting. */
  async releaseAll(read: (taskId: string) => Promise<A2aTask | undefined>): Promise<void> {
    for (const taskId of [...this.waiters.keys()]) {
      const task = await read(taskId).catch(() => undefined);
      if (task) this.release(task);
    }
  }
}
