import type {
  DeliveryCounts,
  DueDelivery,
  ListedDelivery,
  PushConfigInput,
  PushConfigRow,
  PushDeliveryRow,
  PushStore,
} from './push-store.port';
import type { SelectedTaskStore } from './task-store-selection';

/**
 * The PUSH_STORE of the module: the push store of the backend the task store chose (`gateway.state`), found at the
 * first call like the task store itself (task-store-selection.ts). Configs and the outbox always live where the
 * tasks do, because their rows are written in the tasks' own transactions.
 */
export class SelectedPushStore implements PushStore {
  constructor(
    private readonly tasks: SelectedTaskStore,
    /** Whether the configured backend is shared by replicas (known before the first call). */
    private readonly isShared: () => boolean,
  ) {}

  get shared(): boolean {
    return this.isShared();
  }

  taskSeq(taskId: string): Promise<number | undefined> {
    return this.use((s) => s.taskSeq(taskId));
  }
  save(task: { id: string; peer: string }, config: PushConfigInput, max: number): Promise<PushConfigRow | 'full' | 'no-task'> {
    return this.use((s) => s.save(task, config, max));
  }
  get(taskSeq: number, id: string): Promise<PushConfigRow | undefined> {
    return this.use((s) => s.get(taskSeq, id));
  }
  list(taskSeq: number): Promise<PushConfigRow[]> {
    return this.use((s) => s.list(taskSeq));
  }
  remove(taskSeq: number, id: string): Promise<boolean> {
    return this.use((s) => s.remove(taskSeq, id));
  }
  claimDue(now: number, limit: number, leaseMs: number): Promise<DueDelivery[]> {
    return this.use((s) => s.claimDue(now, limit, leaseMs));
  }
  nextDue(): Promise<number | undefined> {
    return this.use((s) => s.nextDue());
  }
  markDelivered(seq: number, at: number): Promise<void> {
    return this.use((s) => s.markDelivered(seq, at));
  }
  markRetry(seq: number, nextAt: number, error: string): Promise<void> {
    return this.use((s) => s.markRetry(seq, nextAt, error));
  }
  markFailed(seq: number, at: number, error: string): Promise<void> {
    return this.use((s) => s.markFailed(seq, at, error));
  }
  listed(state: PushDeliveryRow['state'] | undefined, limit: number): Promise<ListedDelivery[]> {
    return this.use((s) => s.listed(state, limit));
  }
  counts(): Promise<DeliveryCounts> {
    return this.use((s) => s.counts());
  }
  pruneDone(before: number): Promise<number> {
    return this.use((s) => s.pruneDone(before));
  }

  private async use<T>(fn: (store: PushStore) => Promise<T>): Promise<T> {
    return fn(await this.tasks.pushStore());
  }
}
