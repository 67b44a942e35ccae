import type { TaskState } from '../../common/a2a-protocol';

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
  statusMessage?: { messageId: string; text: string };
  /** The agent's reply. */
  artifact?: { artifactId: string; text: string };
  runId?: string;
  createdAt: number;
  /** Last state change; the status timestamp. */
  updatedAt: number;
}

/** A state change; `statusMessage` replaces the previous one (absent clears it). */
export interface TaskTransition {
  state: TaskState;
  statusMessage?: { messageId: string; text: string };
  artifact?: { artifactId: string; text: string };
  runId?: string;
}

/** The A2A 1.0 wire form (proto JSON), as returned by SendMessage (`{task}`) and GetTask. */
export interface WireMessage {
  messageId: string;
  contextId: string;
  taskId: string;
  role: 'ROLE_AGENT';
  parts: Array<{ text: string }>;
}

export interface WireTask {
  id: string;
  contextId: string;
  status: { state: TaskState; timestamp: string; message?: WireMessage };
  artifacts: Array<{ artifactId: string; parts: Array<{ text: string }> }>;
  /** Always empty: transcripts live in the session, not in the task. */
  history: [];
}

export function toWireTask(task: A2aTask): WireTask {
  const status: WireTask['status'] = { state: task.state, timestamp: new Date(task.updatedAt).toISOString() };
  if (task.statusMessage) {
    status.message = {
      messageId: task.statusMessage.messageId,
      contextId: task.contextId,
      taskId: task.id,
      role: 'ROLE_AGENT',
      parts: [{ text: task.statusMessage.text }],
    };
  }
  return {
    id: task.id,
    contextId: task.contextId,
    status,
    artifacts: task.artifact ? [{ artifactId: task.artifact.artifactId, parts: [{ text: task.artifact.text }] }] : [],
    history: [],
  };
}

/** A task as ListTasks returns it: `artifacts` left out entirely unless asked for (the specification's rule). */
export function toListedTask(task: A2aTask, includeArtifacts: boolean): Omit<WireTask, 'artifacts'> & Partial<Pick<WireTask, 'artifacts'>> {
  const wire: Omit<WireTask, 'artifacts'> & Partial<Pick<WireTask, 'artifacts'>> = toWireTask(task);
  if (!includeArtifacts) delete wire.artifacts;
  return wire;
}

/** `task` after `change` at `at`, as the store's transition applies it to a row (artifact and run id kept unless given). */
export function withTransition(task: A2aTask, change: TaskTransition, at: number): A2aTask {
  const { statusMessage: _replaced, ...rest } = task;
  return {
    ...rest,
    state: change.state,
    ...(change.statusMessage ? { statusMessage: change.statusMessage } : {}),
    ...(change.artifact ? { artifact: change.artifact } : {}),
    ...(change.runId ? { runId: change.runId } : {}),
    updatedAt: at,
  };
}
