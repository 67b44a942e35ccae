/**
 * A2A protocol constants shared by the server (a2a-channel) and the client (outbound): what both sides of
 * the wire must spell the same way. Types that only one side needs stay in its module.
 */

/** The protocol version this gateway speaks and advertises (agent card, `A2A-Version` header). */
export const A2A_PROTOCOL_VERSION = '1.0';

/** JSON-RPC method names of A2A 1.0 and their A2A 0.3 aliases, for the operations this gateway implements. */
export const A2A_METHODS = {
  sendMessage: 'SendMessage',
  sendStreamingMessage: 'SendStreamingMessage',
  subscribeToTask: 'SubscribeToTask',
  getTask: 'GetTask',
  cancelTask: 'CancelTask',
  listTasks: 'ListTasks',
  getExtendedAgentCard: 'GetExtendedAgentCard',
} as const;

export const A2A_LEGACY_METHODS = {
  sendMessage: 'message/send',
  sendStreamingMessage: 'message/stream',
  subscribeToTask: 'tasks/resubscribe',
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

/**
 * The A2A versions the gateway speaks on the wire (Major.Minor): 1.0, and 0.3 for peers that predate it.
 * The server answers both (docs/a2a.md#protocol-versions); the client speaks the one configured per peer.
 */
export const A2A_WIRE_VERSIONS = ['1.0', '0.3'] as const;

export type A2aWireVersion = (typeof A2A_WIRE_VERSIONS)[number];

/** A2A 0.3 spells task states in kebab case; each 1.0 state has exactly one 0.3 name. */
const V03_STATE_BY_STATE = {
  TASK_STATE_SUBMITTED: 'submitted',
  TASK_STATE_WORKING: 'working',
  TASK_STATE_COMPLETED: 'completed',
  TASK_STATE_FAILED: 'failed',
  TASK_STATE_CANCELED: 'canceled',
  TASK_STATE_REJECTED: 'rejected',
  TASK_STATE_INPUT_REQUIRED: 'input-required',
  TASK_STATE_AUTH_REQUIRED: 'auth-required',
} as const satisfies Record<TaskState, string>;

export type V03TaskState = (typeof V03_STATE_BY_STATE)[TaskState];

const STATE_BY_V03_STATE: ReadonlyMap<string, TaskState> = new Map(
  Object.entries(V03_STATE_BY_STATE).map(([state, v03]): [string, TaskState] => [v03, state as TaskState]),
);

export function toV03State(state: TaskState): V03TaskState {
  return V03_STATE_BY_STATE[state];
}

/** The 1.0 state of a 0.3 name; undefined for anything else (0.3's own `unknown` included). */
export function fromV03State(name: string): TaskState | undefined {
  return STATE_BY_V03_STATE.get(name);
}

/** The 0.3 state names, in the order of TASK_STATES. */
export const V03_TASK_STATES: readonly V03TaskState[] = TASK_STATES.map(toV03State);
