import type { A2aTask } from '../model/task';

/** The unsettled tasks of one owner (a replica id), and whether that owner keeps a heartbeat lease in the cluster. */
export interface OwnerTaskCount {
  owner: string;
  leased: boolean;
  tasks: number;
}

/**
 * Tasks by the process that runs them, in a store several replicas share (PostgreSQL). A replica whose lease
 * expired is gone with its runs: another replica fails its unsettled tasks (docs/decisions.md#state-on-postgresql).
 */
export interface OwnedTasks {
  /** The owners of unsettled tasks, with how many each. */
  unsettledByOwner(): Promise<OwnerTaskCount[]>;
  /**
   * FAILED with `reason` for every unsettled task of the leased `owner`, in one transaction under the owner's lock,
   * and their events published after it: two replicas sweeping one owner write each task once. Returns them.
   */
  failOwned(owner: string, reason: string, at: number): Promise<A2aTask[]>;
}

/** A task store that can say which tasks each replica owns: only a shared one can (undefined otherwise). */
export interface OwnedTasksSource {
  ownedTasks(): OwnedTasks | undefined;
}
