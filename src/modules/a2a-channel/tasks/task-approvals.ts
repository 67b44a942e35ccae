import type { Approval } from '../../approvals';
import { statusMessage } from '../model/new-task';
import type { StatusMessage } from '../model/task';

/** Status message metadata of a task waiting for an operator: which approval, of which tool, until when. */
export const APPROVAL_METADATA_KEY = 'clawgate/approval';

/**
 * The INPUT_REQUIRED status message of a task whose run waits for an operator to approve a tool call
 * (docs/approvals.md#a2a-tasks): the peer is told what waits and that nothing is asked of it.
 */
export function awaitingApprovalMessage(approval: Approval): StatusMessage {
  return {
    ...statusMessage(
      `Waiting for an operator to approve a call of ${approval.tool} (approval ${approval.id}); nothing is needed from you. ` +
        `Without a decision by ${approval.expiresAt} the call is refused and the agent goes on without it.`,
    ),
    metadata: { [APPROVAL_METADATA_KEY]: { id: approval.id, tool: approval.tool, expiresAt: approval.expiresAt } },
  };
}

/** The refusal of a peer's message to a task that waits for an operator, not for the peer. */
export function notWaitingForPeer(approval: Approval): string {
  return (
    `Task waits for an operator's approval of ${approval.tool} (approval ${approval.id}), not for your input: ` +
    'follow it with GetTask or SubscribeToTask'
  );
}
