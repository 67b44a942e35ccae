import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { A2aAttachments } from '../../src/modules/a2a-channel/attachments/attachments';
import { A2aTaskService } from '../../src/modules/a2a-channel/operations/task.service';
import { A2aTaskStore, taskDatabasePath } from '../../src/modules/a2a-channel/store/sqlite/sqlite-task.store';
import type { TaskStore } from '../../src/modules/a2a-channel/store/task-store.port';
import { RoutingService } from '../../src/modules/routing/routing.service';
import type { AgentRunner } from '../../src/modules/runtime/agent-runner.service';
import { taskAnswers } from './a2a-task-answers';
import type { ServingConfigStore } from './serving-config-store';

/** What the task service needs of a runner: a spec's stand-in runs finish when the spec says so. */
export type TaskServiceRunner = Pick<AgentRunner, 'startRun' | 'abortRun' | 'drain' | 'shutdown'>;

/**
 * The A2A task service over the real SQLite task store in a temp dir, the store seen through `record`'s overrides
 * (a spec records the writes it is asked for, or fails them), answering raw params with tasks in their 1.0 form as a
 * binding has them. `store` is the store itself, for reading past the overrides.
 */
export async function sqliteTaskService(options: {
  tempPrefix: string;
  config: ServingConfigStore;
  runner: TaskServiceRunner;
  record: (store: A2aTaskStore) => Partial<TaskStore>;
}) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), options.tempPrefix));
  const store = new A2aTaskStore(taskDatabasePath(dir), {
    maxTerminalPerPeer: 500,
    terminalRetentionMs: 86_400_000,
    idleExpiryMs: 3_600_000,
  });
  const recorded: TaskStore = Object.assign(Object.create(store) as TaskStore, options.record(store));
  const { config, runner } = options;
  const service = new A2aTaskService(
    config,
    new RoutingService(config),
    runner,
    recorded,
    { now: () => Date.now() },
    new A2aAttachments({ stateDir: dir }),
  );
  return {
    service: taskAnswers(service, config.current().config.channels.a2a.files),
    store,
    cleanup: async () => {
      await store.close().catch(() => undefined);
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
