export { ApprovalsModule } from './approvals.module';
export { ApprovalGate, type ApprovalRequest, type ApprovalResumer } from './approval-gate';
export { requiresApproval } from './tool-approval-match';
export type { Approval, ApprovalState } from './approval';
