import { BUILT_IN_TOOLS } from '../../../common/built-in-tools';
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
  };
}
