import { randomUUID } from 'node:crypto';
import { timeOrderedId } from '../../../common/ids';
import type { TaskState } from '../../../common/a2a-protocol';
import type { A2aTask, TaskMessage } from './task';

/**
 * What a new task is known by before it has a state: its ids, its peer and the peer's first message, and when it came.
 * The SendMessage path routes and starts the run with it, then builds the task once (newTask) in the state it is
 * first stored in.
 */
export interface TaskOrigin {
  id: string;
  peer: string;
  contextId: string;
  messageId: string;
  /** The peer's message text: the first message of the task's history. */
  text: string;
  createdAt: number;
}

/** The fields of a new task beyond its origin. */
export interface NewTaskFields {
  state: TaskState;
  /** The agent and session it runs in; absent for a task refused before routing. */
  route?: { agentId: string; sessionKey: string };
  runId?: string;
  /** Why a task stored in its final state at once is in it (REJECTED, FAILED): its status message and last history message. */
  reason?: string;
  /** Its status time; the creation time unless later. */
  updatedAt?: number;
}

/** A status message of the agent (a reason, a question), with its own message id. */
export function statusMessage(text: string): { messageId: string; text: string } {
  return { messageId: randomUUID(), text };
}

/**
 * The origin of the task a peer's new message makes (not stored yet). Time-ordered ids: the session key and task rows
 * built from them are appended to their indexes, not scattered.
 */
export function taskOrigin(peer: string, message: { contextId?: string; messageId: string; text: string }, now: number): TaskOrigin {
  return {
    id: timeOrderedId(),
    peer,
    contextId: message.contextId ?? `ctx-${timeOrderedId()}`,
    messageId: message.messageId,
    text: message.text,
    createdAt: now,
  };
}

/** The task, as first stored: built in one place from its origin and the state it starts in. */
export function newTask(origin: TaskOrigin, fields: NewTaskFields): A2aTask {
  const asked: TaskMessage = { messageId: origin.messageId, role: 'user', text: origin.text };
  const task: A2aTask = {
    id: origin.id,
    peer: origin.peer,
    contextId: origin.contextId,
    messageId: origin.messageId,
    state: fields.state,
    history: [asked],
    createdAt: origin.createdAt,
    updatedAt: fields.updatedAt ?? origin.createdAt,
  };
  if (fields.route) {
    task.agentId = fields.route.agentId;
    task.sessionKey = fields.route.sessionKey;
  }
  if (fields.runId !== undefined) task.runId = fields.runId;
  if (fields.reason !== undefined) {
    const status = statusMessage(fields.reason);
    task.statusMessage = status;
    task.history.push({ ...status, role: 'agent' });
  }
  return task;
}
