import type { Logger } from '@nestjs/common';
import { MAX_PUSH_CONFIGS_PER_TASK } from '../push/push-config-params';
import type { PushConfigInput, PushStore } from '../store/push-store.port';
import type { A2aTask } from '../model/task';
import type { TaskStore } from '../store/task-store.port';

/**
 * The task's row, then its push config (a failure to keep the config is logged, not fatal). Both are written before
 * the run's outcome or its reply chunks can be recorded (those are attached once this resolves), so every event of
 * the task finds the config. On a shared store the config needs the task's committed row: hence one after the other.
 */
export async function insertWithPush(
  store: TaskStore,
  pushStore: PushStore | undefined,
  task: A2aTask,
  push: PushConfigInput | undefined,
  logger: Logger,
): Promise<void> {
  await store.insert(task);
  if (!push || !pushStore) return;
  await pushStore.save(task, push, MAX_PUSH_CONFIGS_PER_TASK).catch((err: Error) => {
    logger.error(`A2A task ${task.id}: its push config could not be stored: ${err.message}`);
  });
}
