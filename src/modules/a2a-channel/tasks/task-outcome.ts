import { randomUUID } from 'node:crypto';
import type { RunRecord } from '../../runtime';
import { A2A_MESSAGES, MAX_STATUS_TEXT_CHARS } from '../protocol/limits-and-messages';
import type { A2aTask, TaskTransition } from '../model/task';

/** What a task says about itself: status messages, and the state a finished run leaves its task in. */

export function statusMessage(text: string): { messageId: string; text: string } {
  return { messageId: randomUUID(), text };
}

/** A task stored in its final state at once: the status message is also the last message of its history. */
export function withStatus(task: Omit<A2aTask, 'state'>, state: A2aTask['state'], text: string): A2aTask {
  const message = statusMessage(text);
  return { ...task, state, statusMessage: message, history: [...task.history, { ...message, role: 'agent' }] };
}

/**
 * The outcome of a settled run for its task: CANCELED with the reason when it was canceled — through A2A
 * (`canceledThroughA2a`, the CancelTask's reason) or by other means (the operator's run cancel) — else outcomeOf.
 * A shutdown's abort is a failure.
 */
export function settledOutcome(run: RunRecord, canceledThroughA2a: string | undefined): TaskTransition {
  const canceledWhy = run.status === 'aborted' ? (canceledThroughA2a ?? (run.abortedBy === 'cancel' ? run.error : undefined)) : undefined;
  return canceledWhy ? { state: 'TASK_STATE_CANCELED', statusMessage: statusMessage(canceledWhy) } : outcomeOf(run);
}

/** A reply becomes the artifact; an empty reply and a failure become a status message (docs/a2a.md#sending-tasks). */
export function outcomeOf(run: RunRecord): TaskTransition {
  if (run.status === 'completed') {
    const reply = run.reply ?? '';
    if (!reply.trim()) return { state: 'TASK_STATE_COMPLETED', statusMessage: statusMessage(A2A_MESSAGES.emptyReply) };
    return { state: 'TASK_STATE_COMPLETED', artifact: { artifactId: randomUUID(), text: reply } };
  }
  const error = (run.error || `agent run ${run.status}`).slice(0, MAX_STATUS_TEXT_CHARS);
  return { state: 'TASK_STATE_FAILED', statusMessage: statusMessage(error) };
}
