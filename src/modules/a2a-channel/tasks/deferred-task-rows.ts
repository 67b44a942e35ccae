import { type A2aTask, type TaskTransition, withTransition } from '../model/task';
import type { TaskStore } from '../store/task-store.port';

/**
 * The rows of blocking SendMessage tasks. Such a caller is told nothing until its task settles, and is
 * answered only after the settled row's commit, so a task that settles quickly is written once instead of
 * once as WORKING and again when done. One still running after `delayMs` (to 2×`delayMs`) gets its WORKING
 * row then, so ListTasks and the admin list show long tasks while they run; anything about to hand the task's
 * id to someone (a reply timeout, request_input, shutdown) writes it first. Until its row exists, GetTask and
 * CancelTask find the task here. A row that cannot be written is reported to `onLost`. Before a row is written,
 * `reveal` is awaited: from the commit on, other replicas can read the task and its context id (ListTasks).
 */
export class DeferredTaskRows {
  /** Oldest first (a Map keeps insertion order), so a sweep stops at the first one that is not due. */
  private readonly unwritten = new Map<string, { task: A2aTask; since: number }>();
  /**
   * Rows the timer is writing: until the insert commits, the store does not have them, so a reader of one (GetTask,
   * request_input asking for the row) is answered from here or waits for that insert.
   */
  private readonly writing = new Map<string, { task: A2aTask; done: Promise<void> }>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly store: TaskStore,
    private readonly delayMs: number,
    private readonly onLost: (task: A2aTask, error: Error) => void,
    private readonly reveal: (task: A2aTask) => Promise<void> | undefined = () => undefined,
  ) {}

  /** Keeps `task` (WORKING, its caller waiting) unwritten until it settles or has run for a while. */
  defer(task: A2aTask): void {
    this.unwritten.set(task.id, { task, since: Date.now() });
    this.arm();
  }

  /** The task: as kept here while it has no row, else its row. */
  async get(id: string): Promise<A2aTask | undefined> {
    return this.unwritten.get(id)?.task ?? this.writing.get(id)?.task ?? (await this.store.get(id));
  }

  /** The task's row, written first if it has none yet; `fallback` when there is no row. Rejects if it cannot be written. */
  async written(id: string, fallback?: A2aTask): Promise<A2aTask | undefined> {
    const task = this.take(id);
    if (task) await this.insert(task);
    else await this.writing.get(id)?.done;
    return (await this.store.get(id)) ?? fallback;
  }

  /** Records a state change: an unwritten task's only row is written in its new state; undefined if the row is already terminal. */
  async settle(id: string, change: TaskTransition, at: number): Promise<A2aTask | undefined> {
    const task = this.take(id);
    if (!task) {
      // A row on its way (the timer's insert, which may first wait for `reveal`) is written before it is changed.
      await this.writing.get(id)?.done.catch(() => undefined);
      return this.store.transition(id, change, at);
    }
    const settled = withTransition(task, change, at);
    await this.insert(settled);
    return settled;
  }

  /** Writes every unwritten task's row (shutdown); resolves with the tasks whose row was written. */
  async writeAll(): Promise<A2aTask[]> {
    const tasks = [...this.unwritten.keys()].flatMap((id) => this.take(id) ?? []);
    const outcomes = await Promise.allSettled(tasks.map((task) => this.insert(task).then(() => task)));
    return outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
  }

  private take(id: string): A2aTask | undefined {
    const entry = this.unwritten.get(id);
    if (!entry) return undefined;
    this.unwritten.delete(id);
    if (!this.unwritten.size) this.disarm();
    return entry.task;
  }

  private async insert(task: A2aTask): Promise<void> {
    try {
      const revealed = this.reveal(task);
      if (revealed) await revealed;
      await this.store.insert(task);
    } catch (err) {
      this.onLost(task, err as Error);
      throw err;
    }
  }

  private arm(): void {
    if (this.timer || !this.unwritten.size) return;
    this.timer = setTimeout(() => this.writeDue(), this.delayMs);
    // Never keeps a process alive: shutdown writes what is left (writeAll).
    this.timer.unref();
  }

  private disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private writeDue(): void {
    this.timer = undefined;
    const dueBefore = Date.now() - this.delayMs;
    for (const [id, entry] of this.unwritten) {
      if (entry.since > dueBefore) break;
      this.unwritten.delete(id);
      // A failure is reported to onLost, and to whoever awaits the row meanwhile (written).
      const done = this.insert(entry.task);
      this.writing.set(id, { task: entry.task, done });
      done.then(
        () => this.writing.delete(id),
        () => this.writing.delete(id),
      );
    }
    this.arm();
  }
}
