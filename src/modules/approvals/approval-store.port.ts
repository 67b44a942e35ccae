import type { Approval, ApprovalState, DecisionFields } from './approval';

/**
 * Where approvals are kept (`<stateDir>/approvals.sqlite`, or the table replicas share): a pending one survives a
 * restart, and a decision is made once — the first writer wins, whichever process or replica it is.
 */
export interface ApprovalStore {
  insert(approval: Approval): Promise<void>;
  get(id: string): Promise<Approval | undefined>;
  /** Newest first, at most `limit`, only `state` when given. */
  list(filter: { state?: ApprovalState; limit: number }): Promise<Approval[]>;
  /** Pending → the decision, only when still pending: the approval as decided, or undefined when it was not pending. */
  decide(id: string, decision: DecisionFields): Promise<Approval | undefined>;
  /** Records the run that went on after a decision (a restart took the one that asked). */
  setResumedBy(id: string, runId: string): Promise<void>;
  close(): Promise<void>;
}

export const APPROVAL_STORE = Symbol('APPROVAL_STORE');

/** The row of an approval: its id, state and time as columns (to find and order), the rest as one JSON document. */
export interface ApprovalRow {
  id: string;
  state: string;
  requested_at: number | string;
  body: string | Record<string, unknown>;
}

export function approvalOfRow(row: ApprovalRow): Approval {
  const body = (typeof row.body === 'string' ? JSON.parse(row.body) : row.body) as Approval;
  return { ...body, id: row.id, state: row.state as ApprovalState };
}

export function applyDecision(approval: Approval, decision: DecisionFields): Approval {
  return { ...approval, ...decision, ...(decision.note === undefined ? {} : { note: decision.note }) };
}
