import type { TaskState } from '../../../common/a2a-protocol';
import type { ArtifactChunk, TaskEvent } from '../model/task-events';
import type { A2aTask, TaskTransition } from '../model/task';

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

/** A page of one peer's tasks, most recently updated first (ListTasks). */
export interface TaskPageQuery {
  peer: string;
  contextId?: string;
  state?: TaskState;
  /** Epoch ms: only tasks whose status changed at or after. */
  updatedSince?: number;
  /** Position after which the page starts (the last task of the previous page). */
  after?: { updatedAt: number; seq: number };
  limit: number;
}

export interface TaskPage {
  tasks: A2aTask[];
  /** Where the last task of this page is, when more follow. */
  next?: { updatedAt: number; seq: number };
  /** Tasks matching the filters, on every page. */
  total: number;
}

/** How many tasks one peer created for one agent since a given time (the topology's traffic). */
export interface PeerAgentCount {
  peer: string;
  /** The agent that answered; null for tasks refused before one was chosen. */
  agentId: string | null;
  count: number;
}

export interface RetentionPolicy {
  terminalRetentionMs: number;
  /** Read at each terminal write (it may be a getter over the current config): a change applies to the next one. */
  readonly maxTerminalPerPeer: number;
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
  /**
   * Records one chunk of a streamed reply (the task's artifact so far, and an event) while the task is not terminal;
   * false when it is terminal or unknown. Every write that changes a task records its events (task-events.ts) in
   * the same commit; they are published to the store's event sink once that commit is on disk.
   */
  appendArtifact(id: string, chunk: ArtifactChunk): Promise<boolean>;
  /** The task's events after number `after`, in order (a stream's replay). */
  eventsAfter(id: string, after: number): Promise<TaskEvent[]>;
  list(filter: TaskListFilter): Promise<A2aTask[]>;
  /**
   * One peer's tasks by last status change, newest first, a page at a time. A page is read in that order
   * from an index, so its cost does not grow with how many tasks the peer has kept.
   */
  page(query: TaskPageQuery): Promise<TaskPage>;
  /**
   * Tasks of each of `peers` created at or after `since` (epoch ms), counted per agent. Read per peer from the
   * recency index (a task created since then was also updated since then), so its cost follows the window's tasks.
   */
  countsSince(peers: readonly string[], since: number): Promise<PeerAgentCount[]>;
  /**
   * Every unsettled task becomes FAILED with the reason for its state (startup after a crash), except one `reason`
   * answers undefined for (it is kept: a task waiting for a tool approval goes on once that is decided). Returns how many.
   */
  failUnsettled(reason: (state: TaskState, id: string) => string | undefined, at: number): Promise<number>;
  /** Retention: expires idle unsettled tasks (FAILED with `expiredReason`) and drops old terminal ones. */
  sweep(now: number, expiredReason: string): Promise<SweepOutcome>;
  close(): Promise<void>;
  /**
   * Shared stores only: the owner value of the task's row (the replica whose run it is) and the one this replica
   * writes, so a replica can address another about a task (a CancelTask received elsewhere).
   */
  ownerOf?(id: string): Promise<string | undefined>;
  readonly owner?: string;
}

/** What the store tells once a commit is on disk, in commit order. */
export interface TaskStoreHooks {
  /**
   * Every task event (the live half of a stream). `unfollowed`: tasks of these events that no stream follows outside
   * this process (a shared store knows it: TaskEventBus marks a task before it listens to other replicas).
   */
  onEvents?: (events: readonly TaskEvent[], unfollowed?: ReadonlySet<string>) => void;
  /** The commit queued push deliveries (the push deliverer looks for due ones). */
  onPushQueued?: () => void;
  /** A task was written in a state: inserted in it, or moved into it (the metrics' tasks by state). */
  onState?: (state: TaskState) => void;
}
