import type { A2aTask } from './task-model';

/**
 * A blocking SendMessage's task is stored once, when it settles, instead of once as WORKING and again when
 * done: the caller is answered only after that row's commit, so nothing it is told is ever missing, and a
 * quick task costs one write. These are the tasks still waiting for their first row. One that is still
 * running after `delayMs` (to 2×`delayMs`) gets its WORKING row then, so ListTasks and the admin list show
 * long tasks while they run. Until their row exists, GetTask and CancelTask find them here.
 */
export class UnwrittenTasks {
  /** Oldest first (a Map keeps insertion order), so a sweep stops at the first one that is not due. */
  private readonly tasks = new Map<string, { task: A2aTask; since: number }>();
  private timer?: NodeJS.Timeout;

  constructor(
    /** Writes the row of a task that has run for `delayMs` (it has left this set by then). */
    private readonly writeRow: (task: A2aTask) => void,
    private readonly delayMs: number,
  ) {}

  add(task: A2aTask): void {
    this.tasks.set(task.id, { task, since: Date.now() });
    this.arm();
  }

  get(id: string): A2aTask | undefined {
    return this.tasks.get(id)?.task;
  }

  /** Removes the task and returns it, when its row is still unwritten: the caller writes it now. */
  take(id: string): A2aTask | undefined {
    const entry = this.tasks.get(id);
    if (entry) this.tasks.delete(id);
    return entry?.task;
  }

  /** Every unwritten task, removed (shutdown writes them all). */
  takeAll(): A2aTask[] {
    const all = [...this.tasks.values()].map((e) => e.task);
    this.tasks.clear();
    clearTimeout(this.timer);
    this.timer = undefined;
    return all;
  }

  private arm(): void {
    if (this.timer || !this.tasks.size) return;
    this.timer = setTimeout(() => this.writeDue(), this.delayMs);
    // Pending rows never keep a process alive: shutdown writes them (takeAll).
    this.timer.unref();
  }

  private writeDue(): void {
    this.timer = undefined;
    const dueBefore = Date.now() - this.delayMs;
    for (const [id, entry] of this.tasks) {
      if (entry.since > dueBefore) break;
      this.tasks.delete(id);
      this.writeRow(entry.task);
    }
    this.arm();
  }
}
