import { Inject, Injectable } from '@nestjs/common';
import { TASK_STORE, type PeerAgentCount, type TaskStore } from './task-store.port';

/** Read-only counts of the task store for other modules (the topology's traffic), without handing out the store. */
@Injectable()
export class A2aTaskCounts {
  constructor(@Inject(TASK_STORE) private readonly tasks: Pick<TaskStore, 'countsSince'>) {}

  /** Tasks each of `peers` created at or after `since` (epoch ms), per agent. */
  countsSince(peers: readonly string[], since: number): Promise<PeerAgentCount[]> {
    return this.tasks.countsSince(peers, since);
  }
}
