import type { TaskState } from '../../../common/a2a-protocol';

/** One message of a task's history: what the peer sent (`user`), or a status message of the agent (`agent`). */
export interface TaskMessage {
  messageId: string;
  role: 'user' | 'agent';
  text: string;
  /** The message's metadata, as it goes out (a FAILED task's ErrorInfo, task-outcome.ts); absent on most. */
  metadata?: Record<string, unknown>;
}

/** A status message of the agent: its text and, for a refusal, the metadata that tells a client why by reason. */
export interface StatusMessage {
  messageId: string;
  text: string;
  metadata?: Record<string, unknown>;
}

/** A task as the gateway keeps it. Times are epoch milliseconds. */
export interface A2aTask {
  id: string;
  /** The authenticated peer that created it; only that peer can read it. */
  peer: string;
  contextId: string;
  /** The agent and session the task ran in; absent when it was refused before routing. */
  agentId?: string;
  sessionKey?: string;
  /** The peer's message id. */
  messageId: string;
  state: TaskState;
  /** Why the task is in its state (REJECTED, FAILED, or a COMPLETED run without text). */
  statusMessage?: StatusMessage;
  /** The agent's reply. */
  artifact?: { artifactId: string; text: string };
  runId?: string;
  /**
   * The messages in and out, oldest first: the peer's first message and its answers to request_input, and every
   * status message (the agent's questions, why it failed or was canceled). The reply is the artifact, not repeated
   * here. Bounded: a task asks for input at most MAX_INPUT_REQUESTS times.
   */
  history: TaskMessage[];
  createdAt: number;
  /** Last state change; the status timestamp. */
  updatedAt: number;
  /** The number of the task's last event (task-events.ts); absent before its first. */
  events?: number;
}

/**
 * A state change; `statusMessage` replaces the previous one (absent clears it) and is appended to the history as
 * the agent's; `peerMessage` (the peer's answer to request_input) is appended as the peer's. One or the other.
 */
export interface TaskTransition {
  state: TaskState;
  statusMessage?: StatusMessage;
  peerMessage?: { messageId: string; text: string };
  artifact?: { artifactId: string; text: string };
  runId?: string;
}

/** The A2A 1.0 wire form (proto JSON), as returned by SendMessage (`{task}`) and GetTask. */
export interface WireMessage {
  messageId: string;
  contextId: string;
  taskId: string;
  role: 'ROLE_USER' | 'ROLE_AGENT';
  parts: Array<{ text: string }>;
  metadata?: Record<string, unknown>;
}

export interface WireTask {
  id: string;
  contextId: string;
  status: { state: TaskState; timestamp: string; message?: WireMessage };
  artifacts: Array<{ artifactId: string; parts: Array<{ text: string }> }>;
  /** The task's messages, oldest first; left out when `historyLength` is 0. */
  history?: WireMessage[];
}

/**
 * The wire form. `historyLength` as the specification has it: unset gives the whole (bounded) history, 0 leaves
 * `history` out, n gives the last n messages.
 */
export function toWireTask(task: A2aTask, historyLength?: number): WireTask {
  const message = (m: StatusMessage, role: WireMessage['role']): WireMessage => ({
    messageId: m.messageId,
    contextId: task.contextId,
    taskId: task.id,
    role,
    parts: [{ text: m.text }],
    ...(m.metadata ? { metadata: m.metadata } : {}),
  });
  const status: WireTask['status'] = { state: task.state, timestamp: new Date(task.updatedAt).toISOString() };
  if (task.statusMessage) status.message = message(task.statusMessage, 'ROLE_AGENT');
  const wire: WireTask = {
    id: task.id,
    contextId: task.contextId,
    status,
    artifacts: task.artifact ? [{ artifactId: task.artifact.artifactId, parts: [{ text: task.artifact.text }] }] : [],
  };
  if (historyLength !== 0) {
    const kept = historyLength === undefined ? task.history : task.history.slice(-historyLength);
    wire.history = kept.map((m) => message(m, m.role === 'user' ? 'ROLE_USER' : 'ROLE_AGENT'));
  }
  return wire;
}

/**
 * A task as ListTasks returns it: `artifacts` left out entirely unless asked for (the specification's rule), and
 * `history` unless `historyLength` asks for it — a page of 100 tasks with their histories would pass the 1 MiB
 * response limit, so the list's default amount of history is none.
 */
export function toListedTask(
  task: A2aTask,
  includeArtifacts: boolean,
  historyLength = 0,
): Omit<WireTask, 'artifacts'> & Partial<Pick<WireTask, 'artifacts'>> {
  const wire: Omit<WireTask, 'artifacts'> & Partial<Pick<WireTask, 'artifacts'>> = toWireTask(task, historyLength);
  if (!includeArtifacts) delete wire.artifacts;
  return wire;
}

/** A page of ListTasks as the method answers it. */
export interface ListTasksResult {
  tasks: Array<ReturnType<typeof toListedTask>>;
  nextPageToken: string;
  pageSize: number;
  totalSize: number;
}

/** The message a transition adds to a task's history: its status message as the agent's, else the peer's answer. */
export function historyMessageOf(change: TaskTransition): TaskMessage | undefined {
  if (change.statusMessage && change.peerMessage) throw new Error('a transition adds one history message, not two');
  if (change.statusMessage) return { ...change.statusMessage, role: 'agent' };
  return change.peerMessage && { ...change.peerMessage, role: 'user' };
}

/** `task` after `change` at `at`, as the store's transition applies it to a row (artifact and run id kept unless given). */
export function withTransition(task: A2aTask, change: TaskTransition, at: number): A2aTask {
  const { statusMessage: _replaced, ...rest } = task;
  const added = historyMessageOf(change);
  return {
    ...rest,
    state: change.state,
    ...(change.statusMessage ? { statusMessage: change.statusMessage } : {}),
    ...(change.artifact ? { artifact: change.artifact } : {}),
    ...(change.runId ? { runId: change.runId } : {}),
    history: added ? [...task.history, added] : task.history,
    updatedAt: at,
  };
}
