import type { TaskState } from '../../common/a2a-protocol';
import type { A2aTask, TaskTransition } from './task-model';

/**
 * The TaskStore port (docs/a2a.md#task-store). The embedded implementation is SQLite in the state dir (A2aTaskStore);
 * a shared backend can replace it without touching callers. Inject with `@Inject(TASK_STORE)`.
 */
export const TASK_STORE = Symbol('A2A_TASK_STORE');

export interface TaskListFilter {
  peer?: string;
  state?: TaskState;
  contextId?: string;
  /** Newest first, at most this many. */
  limit: number;
}

export interface RetentionPolicy {
  terminalRetentionMs: number;
  maxTerminalPerPeer: number;
  idleExpiryMs: number;
}

export interface SweepOutcome {
  /** Non-terminal tasks idle past the expiry, now FAILED. */
  expired: A2aTask[];
  /** Terminal tasks removed (age or per-peer cap). */
  deleted: number;
}

export interface TaskStore {
  insert(task: A2aTask): Promise<void>;
  get(id: string): Promise<A2aTask | undefined>;
  /**
   * Applies the transition only while the task is not terminal (a late result for a settled task is
   * dropped). Returns the updated task, or undefined when it was already terminal or is unknown. A task
   * that becomes terminal may push its peer's oldest terminal tasks over the cap out of the store.
   */
  transition(id: string, change: TaskTransition, at: number): Promise<A2aTask | undefined>;
  list(filter: TaskListFilter): Promise<A2aTask[]>;
  /** Every unsettled task becomes FAILED with `reason` (startup after a crash). Returns how many. */
  failUnsettled(reason: string, at: number): Promise<number>;
  /** Retention: expires idle unsettled tasks (FAILED with `expiredReason`) and drops old terminal ones. */
  sweep(now: number, expiredReason: string): Promise<SweepOutcome>;
  close(): Promise<void>;
}
