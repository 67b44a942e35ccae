/**
 * A2A protocol constants shared by the server (a2a-channel) and the client (outbound): what both sides of
 * the wire must spell the same way. Types that only one side needs stay in its module.
 */

/** The protocol version this gateway speaks and advertises (agent card, `A2A-Version` header). */
export const A2A_PROTOCOL_VERSION = '1.0';

/** JSON-RPC method names of A2A 1.0 and their A2A 0.3 aliases, for the operations this gateway implements. */
export const A2A_METHODS = {
  sendMessage: 'SendMessage',
  getTask: 'GetTask',
  cancelTask: 'CancelTask',
  listTasks: 'ListTasks',
  getExtendedAgentCard: 'GetExtendedAgentCard',
} as const;

export const A2A_LEGACY_METHODS = {
  sendMessage: 'message/send',
  getTask: 'tasks/get',
  cancelTask: 'tasks/cancel',
  listTasks: 'tasks/list',
  getExtendedAgentCard: 'agent/getAuthenticatedExtendedCard',
} as const;

/** A2A 1.0 task states, by their proto JSON names (the type is derived from the list, so they cannot drift). */
export const TASK_STATES = [
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
] as const;

export type TaskState = (typeof TASK_STATES)[number];

const KNOWN: ReadonlySet<string> = new Set(TASK_STATES);

/** States a task never leaves. */
const TERMINAL: ReadonlySet<TaskState> = new Set([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);

export function isTaskState(value: string): value is TaskState {
  return KNOWN.has(value);
}

export function isTerminalState(state: TaskState): boolean {
  return TERMINAL.has(state);
}
