import type { Pool } from 'pg';
import { createPostgresPool, inTransaction, type Migration, migrate, postgresStartError } from '../../common/storage/postgres';
import type { Approval, ApprovalState, DecisionFields } from './approval';
import { applyDecision, approvalOfRow, type ApprovalRow, type ApprovalStore } from './approval-store.port';

const APPROVAL_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'tool approvals',
    sql: `
CREATE TABLE tool_approvals (
  id TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  requested_at BIGINT NOT NULL,
  body JSONB NOT NULL
);
CREATE INDEX tool_approvals_by_state ON tool_approvals (state, requested_at);`,
  },
];

/** The approvals every replica sees: a decision made on any of them reaches the run on whichever one waits. */
export class PgApprovalStore implements ApprovalStore {
  private constructor(private readonly pool: Pool) {}

  static async open(url: string): Promise<PgApprovalStore> {
    const pool = createPostgresPool(url, { max: 2 });
    try {
      await migrate(pool, 'approvals', APPROVAL_MIGRATIONS);
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw postgresStartError(url, 'the approval store could not start', err);
    }
    return new PgApprovalStore(pool);
  }

  async insert(approval: Approval): Promise<void> {
    await this.pool.query('INSERT INTO tool_approvals (id, state, requested_at, body) VALUES ($1, $2, $3, $4)', [
      approval.id,
      approval.state,
      Date.parse(approval.requestedAt),
      JSON.stringify(approval),
    ]);
  }

  async get(id: string): Promise<Approval | undefined> {
    const { rows } = await this.pool.query<ApprovalRow>('SELECT * FROM tool_approvals WHERE id = $1', [id]);
    return rows[0] && approvalOfRow(rows[0]);
  }

  async list({ state, limit }: { state?: ApprovalState; limit: number }): Promise<Approval[]> {
    const { rows } = state
      ? await this.pool.query<ApprovalRow>('SELECT * FROM tool_approvals WHERE state = $1 ORDER BY requested_at DESC, id DESC LIMIT $2', [
          state,
          limit,
        ])
      : await this.pool.query<ApprovalRow>('SELECT * FROM tool_approvals ORDER BY requested_at DESC, id DESC LIMIT $1', [limit]);
    return rows.map(approvalOfRow);
  }

  async decide(id: string, decision: DecisionFields): Promise<Approval | undefined> {
    const client = await this.pool.connect();
    try {
      return await inTransaction(client, async () => {
        // The row lock makes the first of two concurrent decisions the only one.
        const { rows } = await client.query<ApprovalRow>("SELECT * FROM tool_approvals WHERE id = $1 AND state = 'pending' FOR UPDATE", [
          id,
        ]);
        if (!rows[0]) return undefined;
        const next = applyDecision(approvalOfRow(rows[0]), decision);
        await client.query('UPDATE tool_approvals SET state = $1, body = $2 WHERE id = $3', [next.state, JSON.stringify(next), id]);
        return next;
      });
    } finally {
      client.release();
    }
  }

  async setResumedBy(id: string, runId: string): Promise<void> {
    await this.pool.query(`UPDATE tool_approvals SET body = jsonb_set(body, '{resumedBy}', to_jsonb($1::text)) WHERE id = $2`, [runId, id]);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
