import { isTerminalState, type TaskState } from '../../../common/a2a-protocol';
import { toWireTask, type A2aTask, type WireTask } from './task';

/**
 * A task's events (docs/a2a-streaming.md): every state change and every artifact chunk after the task's row was
 * first written, numbered 1, 2, 3… per task and stored with the task (same database, same transaction as the
 * change, deleted with the task). A stream is the task as it was at event n, then the events after n; a client
 * that reconnects with `Last-Event-ID: n` gets exactly the events it missed.
 *
 * The body is the A2A 1.0 `StreamResponse` (`{"statusUpdate":…}` / `{"artifactUpdate":…}`) serialized once
 * when the event is recorded, so every subscriber of a task receives the same bytes.
 */
export interface TaskEvent {
  taskId: string;
  /** 1-based, per task; the SSE `id`. */
  n: number;
  body: string;
  /** The task is over or interrupted (terminal, INPUT_REQUIRED, AUTH_REQUIRED) with this event: streams end here. */
  closes: boolean;
}

/** One piece of a reply as the run produces it, in the spec's append/lastChunk terms. */
export interface ArtifactChunk {
  artifactId: string;
  text: string;
  /** Added to the text sent before (true), or replaces it (false: the first chunk, or a new tool round's reply). */
  append: boolean;
  /** The reply is complete with this chunk. */
  lastChunk: boolean;
}

/** States at which a stream closes: over, or waiting for the peer (the specification's "interrupted" states). */
export function closesStream(state: TaskState): boolean {
  return isTerminalState(state) || state === 'TASK_STATE_INPUT_REQUIRED' || state === 'TASK_STATE_AUTH_REQUIRED';
}

/** The TaskStatusUpdateEvent of `task` as it is now (after its change). */
export function statusUpdateBody(task: A2aTask): string {
  const { status } = toWireTask(task, 0);
  return JSON.stringify({ statusUpdate: { taskId: task.id, contextId: task.contextId, status } });
}

/** The TaskArtifactUpdateEvent of one chunk of `task`'s reply. */
export function artifactUpdateBody(task: Pick<A2aTask, 'id' | 'contextId'>, chunk: ArtifactChunk): string {
  return JSON.stringify({
    artifactUpdate: {
      taskId: task.id,
      contextId: task.contextId,
      artifact: { artifactId: chunk.artifactId, parts: [{ text: chunk.text }] },
      append: chunk.append,
      lastChunk: chunk.lastChunk,
    },
  });
}

/** The first item of a stream: the task itself (the specification's Task-first rule). */
export function taskSnapshotBody(task: WireTask): string {
  return JSON.stringify({ task });
}
