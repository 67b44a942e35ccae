import { randomUUID } from 'node:crypto';
import type { RunRecord } from '../../runtime';
import { A2A_MESSAGES, MAX_STATUS_TEXT_CHARS } from '../protocol/limits-and-messages';
import { statusMessage } from '../model/new-task';
import { refusalErrorInfo, STATUS_ERROR_METADATA_KEY } from '../protocol/errors';
import type { TaskTransition } from '../model/task';

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
  if (run.status === 'failed' && run.refusal) {
    // A rule of the gateway refused the run (a budget): the client can tell why by reason, not only by the text.
    const metadata = { [STATUS_ERROR_METADATA_KEY]: refusalErrorInfo(run.refusal) };
    return { state: 'TASK_STATE_FAILED', statusMessage: { ...statusMessage(error), metadata } };
  }
  return { state: 'TASK_STATE_FAILED', statusMessage: statusMessage(error) };
}
