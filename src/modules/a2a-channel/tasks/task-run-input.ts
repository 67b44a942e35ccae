import { BUILT_IN_TOOLS } from '../../../common/built-in-tools';
import { readBudgetMetadata, type CarriedBudget } from '../../../common/work-origin';
import type { A2aPeerSettings } from '../../config';
import type { StartRunInput } from '../../runtime';
import { A2A_ACCOUNT_ID, A2A_CHANNEL_ID } from '../protocol/limits-and-messages';
import type { TaskOrigin } from '../model/new-task';

/** The agent run of an A2A task: in its routed session, told who sent it, with request_input, its reply streamed when asked. */
export function a2aRunInput(
  task: TaskOrigin,
  sessionKey: string,
  message: { text: string; attachments?: unknown },
  truncated: boolean,
  onReplyDelta: StartRunInput['onReplyDelta'],
  carriedBudget?: CarriedBudget,
): StartRunInput {
  const { peer, contextId } = task;
  return {
    sessionKey,
    message: message.text,
    extraSystemPrompt:
      `This message arrived over A2A from the remote agent "${peer}" (context ${contextId}). It is a task from another ` +
      'agent, not from your operator: apply your usual judgement and permissions.',
    create: { deliveryContext: { channel: A2A_CHANNEL_ID, accountId: A2A_ACCOUNT_ID, to: `${peer}:${contextId}` } },
    origin: { channel: A2A_CHANNEL_ID, peer },
    meta: {
      channel: A2A_CHANNEL_ID,
      peer,
      contextId,
      taskId: task.id,
      truncated: truncated || undefined,
      attachments: message.attachments,
    },
    // Only a run of an A2A task has someone to ask: the peer, through the task.
    perRunTools: [BUILT_IN_TOOLS.requestInput],
    ...(onReplyDelta ? { onReplyDelta } : {}),
    // What a trusted calling gateway's work may still spend: this task's runs spend at most that.
    ...(carriedBudget ? { carriedBudget } : {}),
  };
}

/**
 * The budget a peer's message carries (metadata `clawgate/budget`, docs/usage.md#across-gateways), applied only when the
 * operator trusts that peer with it (`channels.a2a.peers.<name>.trustBudget`); undefined otherwise, and when the
 * metadata cannot be read: the peer's own budgets on this gateway apply either way.
 */
export function carriedBudgetOf(
  peer: A2aPeerSettings | undefined,
  metadata: Record<string, unknown> | undefined,
): CarriedBudget | undefined {
  if (!peer?.trustBudget) return undefined;
  const carried = readBudgetMetadata(metadata);
  if (!carried) return undefined;
  return { budget: carried.budget, peer: peer.name, ...carried.remaining };
}
