import { mkdtempSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeApprovalStoreContract } from '../../../test/support/approval-store-contract';
import type { ApprovalStore } from './approval-store.port';
import { approvalDatabasePath, SqliteApprovalStore } from './sqlite-approval.store';

describeApprovalStoreContract('SQLite', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-approval-contract-'));
  const opened: ApprovalStore[] = [];
  return {
    open: async () => {
      const store = new SqliteApprovalStore(dir);
      opened.push(store);
      return store;
    },
    dispose: async () => {
      for (const store of opened) await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('SqliteApprovalStore (SQLite only)', () => {
  it('keeps its file private to the gateway (0600): tool arguments can be sensitive', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-approval-mode-'));
    try {
      const store = new SqliteApprovalStore(dir);
      await store.close();
      expect(statSync(approvalDatabasePath(dir)).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
