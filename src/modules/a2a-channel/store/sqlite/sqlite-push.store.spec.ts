import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describePushStoreContract } from '../../../../../test/support/push-store-contract';
import { A2aTaskStore, taskDatabasePath } from './sqlite-task.store';
import { SqlitePushStore } from './sqlite-push.store';

describePushStoreContract('SQLite', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-push-contract-'));
  const opened: A2aTaskStore[] = [];
  return {
    open: async (retention, hooks) => {
      const tasks = new A2aTaskStore(taskDatabasePath(dir), retention, hooks);
      opened.push(tasks);
      return { tasks, push: new SqlitePushStore(tasks) };
    },
    dispose: async () => {
      for (const store of opened) await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
