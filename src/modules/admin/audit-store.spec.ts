import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeAuditStoreContract } from '../../../test/support/audit-store-contract';
import { FileAuditStore } from './audit-store';

describeAuditStoreContract('JSON Lines file', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-audit-contract-'));
  return {
    open: async () => new FileAuditStore(path.join(dir, 'audit.jsonl')),
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
});
