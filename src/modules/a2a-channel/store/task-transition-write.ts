import { artifactUpdateBody, closesStream, statusUpdateBody, type TaskEvent } from '../model/task-events';
import { historyMessageOf, type A2aTask, type TaskTransition } from '../model/task';

/**
 * What a transition writes, the same in every task store: the columns of its UPDATE (without `terminal`, whose
 * type each database spells its own way) and the number of events it adds — the artifact's (when the change
 * carries a whole reply), then the status's.
 */
export function transitionWrite(id: string, change: TaskTransition, at: number) {
  const added = change.artifact ? 2 : 1;
  const entry = historyMessageOf(change);
  return {
    added,
    params: {
      id,
      state: change.state,
      status_message_id: change.statusMessage?.messageId ?? null,
      status_text: change.statusMessage?.text ?? null,
      artifact_id: change.artifact?.artifactId ?? null,
      artifact_text: change.artifact?.text ?? null,
      run_id: change.runId ?? null,
      updated_at: at,
      events_added: added,
      history_add: entry ? JSON.stringify(entry) : null,
    },
  };
}

/** The events of a transition applied to `task`, numbered up to `lastEvent` (the task's event count after it). */
export function transitionEvents(task: A2aTask, change: TaskTransition, added: number, lastEvent: number): TaskEvent[] {
  const first = lastEvent - added + 1;
  const events: TaskEvent[] = [];
  if (change.artifact) {
    const chunk = { ...change.artifact, append: false, lastChunk: true };
    events.push({ taskId: task.id, n: first, body: artifactUpdateBody(task, chunk), closes: false });
  }
  events.push({ taskId: task.id, n: first + added - 1, body: statusUpdateBody(task), closes: closesStream(task.state) });
  return events;
}
