import { BUILT_IN_TOOLS } from '../../../common/built-in-tools';
import { timeOrderedId } from '../../../common/ids';
import type { StartRunInput } from '../../runtime';
import { A2A_ACCOUNT_ID, A2A_CHANNEL_ID } from '../protocol/limits-and-messages';
import type { SendMessageInput } from '../protocol/method-params';
import type { A2aTask } from '../model/task';

/**
 * A new task's first shape (not stored yet): ids, the peer's message as its history. Time-ordered ids: the session
 * key and task rows built from them are appended to their indexes, not scattered.
 */
export function newTaskOf(peer: string, input: SendMessageInput, now: number): Omit<A2aTask, 'state'> {
  return {
    id: timeOrderedId(),
    peer,
    contextId: input.contextId ?? `ctx-${timeOrderedId()}`,
    messageId: input.messageId,
    history: [{ messageId: input.messageId, role: 'user', text: input.text }],
    createdAt: now,
    updatedAt: now,
  };
}

/** The agent run of an A2A task: in its routed session, told who sent it, with request_input, its reply streamed when asked. */
export function a2aRunInput(
  task: { id: string; peer: string; contextId: string; sessionKey: string },
  message: { text: string; attachments?: unknown },
  truncated: boolean,
  onReplyDelta: StartRunInput['onReplyDelta'],
): StartRunInput {
  const { peer, contextId } = task;
  return {
    sessionKey: task.sessionKey,
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
