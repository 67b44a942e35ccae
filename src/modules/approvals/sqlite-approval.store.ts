import * as path from 'node:path';
import { openSqlite, useDurableStoreSettings, type SqliteDatabase } from '../../common/storage/sqlite';
import type { Approval, ApprovalState, DecisionFields } from './approval';
import { applyDecision, approvalOfRow, type ApprovalRow, type ApprovalStore } from './approval-store.port';

export function approvalDatabasePath(stateDir: string): string {
  return path.join(stateDir, 'approvals.sqlite');
}

/** `<stateDir>/approvals.sqlite` (0600, synchronous durable writes: a request or decision acknowledged is on disk). */
export class SqliteApprovalStore implements ApprovalStore {
  private readonly db: SqliteDatabase;

  constructor(stateDir: string) {
    this.db = openSqlite(approvalDatabasePath(stateDir));
    useDurableStoreSettings(this.db);
    this.db.exec(`CREATE TABLE IF NOT EXISTS tool_approvals (
      id TEXT PRIMARY KEY,
      state TEXT NOT NULL,
      requested_at INTEGER NOT NULL,
      body TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS tool_approvals_by_state ON tool_approvals (state, requested_at);`);
  }

  insert(approval: Approval): Promise<void> {
    this.db
      .prepare('INSERT INTO tool_approvals (id, state, requested_at, body) VALUES (?, ?, ?, ?)')
      .run(approval.id, approval.state, Date.parse(approval.requestedAt), JSON.stringify(approval));
    return Promise.resolve();
  }

  get(id: string): Promise<Approval | undefined> {
    const row = this.db.prepare('SELECT * FROM tool_approvals WHERE id = ?').get(id) as ApprovalRow | undefined;
    return Promise.resolve(row && approvalOfRow(row));
  }

  list({ state, limit }: { state?: ApprovalState; limit: number }): Promise<Approval[]> {
    const rows = (
      state
        ? this.db.prepare('SELECT * FROM tool_approvals WHERE state = ? ORDER BY requested_at DESC, id DESC LIMIT ?').all(state, limit)
        : this.db.prepare('SELECT * FROM tool_approvals ORDER BY requested_at DESC, id DESC LIMIT ?').all(limit)
    ) as ApprovalRow[];
    return Promise.resolve(rows.map(approvalOfRow));
  }

  decide(id: string, decision: DecisionFields): Promise<Approval | undefined> {
    // One transaction: read and conditional write, so two decisions can never both win.
    const decided = this.db.transaction(() => {
      const row = this.db.prepare("SELECT * FROM tool_approvals WHERE id = ? AND state = 'pending'").get(id) as ApprovalRow | undefined;
      if (!row) return undefined;
      const next = applyDecision(approvalOfRow(row), decision);
      this.db.prepare('UPDATE tool_approvals SET state = ?, body = ? WHERE id = ?').run(next.state, JSON.stringify(next), id);
      return next;
    })();
    return Promise.resolve(decided);
  }

  setResumedBy(id: string, runId: string): Promise<void> {
    this.db.prepare("UPDATE tool_approvals SET body = json_set(body, '$.resumedBy', ?) WHERE id = ?").run(runId, id);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.db.close();
    return Promise.resolve();
  }
}
