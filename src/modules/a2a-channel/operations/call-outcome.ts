import type { AppError } from '../../../common/errors/app-error';
import type { StreamItem, TaskEventStream } from '../streaming/task-event-stream';
import type { A2aResult } from './a2a-result';

/** A streaming call's answer: the task's events, each rendered as the call's version has its result. */
export interface A2aStreamResult {
  stream: TaskEventStream;
  /** The item's result JSON in the call's version (1.0: the stored StreamResponse as it is). */
  render(item: StreamItem): string;
}

/**
 * What one A2A call came to: its result (domain objects; the binding renders them in the call's version), its stream
 * (SendStreamingMessage, SubscribeToTask), or the error to answer with (never anything internal).
 */
export type A2aCallOutcome = { ok: true; result: A2aResult } | { ok: true; stream: A2aStreamResult } | { ok: false; error: AppError };
