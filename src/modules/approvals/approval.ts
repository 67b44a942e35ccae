/** A call of a tool that waits for an operator's decision (docs/approvals.md). */
export type ApprovalState = 'pending' | 'approved' | 'denied' | 'expired' | 'withdrawn';

export const APPROVAL_STATES: readonly ApprovalState[] = ['pending', 'approved', 'denied', 'expired', 'withdrawn'];

/** The decisions an operator makes; `expired` is the timeout's, `withdrawn` the run's (aborted while it waited). */
export type ApprovalDecision = Exclude<ApprovalState, 'pending'>;

export interface Approval {
  /** Time-ordered id (the oldest request lists first). */
  id: string;
  state: ApprovalState;
  agentId: string;
  sessionKey: string;
  /** The run that asked; after a restart a new run of the session takes its place (`resumedBy`). */
  runId: string;
  tool: string;
  /** The model's call id: the resumed run answers exactly this call. */
  toolCallId: string;
  /** The arguments the tool would be called with, as the model wrote them. */
  args: Record<string, unknown>;
  /** Where the run's message came from: channel, and its A2A peer / key / account. */
  channel: string;
  caller?: string;
  /** The A2A task the run belongs to, when it does: it shows INPUT_REQUIRED while this waits. */
  taskId?: string;
  /** ISO 8601 times. */
  requestedAt: string;
  expiresAt: string;
  decidedAt?: string;
  /** `token:<name>`, `sso:<user>`, `loopback`, `cli`, or `timeout` / `run` for the decisions nobody made. */
  decidedBy?: string;
  /** The operator's words, given to the model with a denial. */
  note?: string;
  /** The run that went on after the decision when the one that asked was gone (a restart). */
  resumedBy?: string;
}

/** What a decision writes. */
export interface DecisionFields {
  state: ApprovalDecision;
  decidedAt: string;
  decidedBy: string;
  note?: string;
}
