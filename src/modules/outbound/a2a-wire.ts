import { isTaskState, isTerminalState, TaskState } from '../../common/a2a-protocol';

/**
 * The A2A wire shapes the outbound client sends in 1.0 (proto-JSON names; the 0.3 form is in peer-dialect.ts)
 * and reads in both versions: a peer's answer is read leniently as 1.0 or 0.3, whichever was spoken (method
 * names, version and task states come from common/a2a-protocol). Pure functions.
 */

/**
 * JSON-RPC "method not found": the answer to a 1.0 SendMessage that triggers the one A2A 0.3 `message/send`
 * retry (docs/outbound.md#2-the-wire-exchange).
 */
export const METHOD_NOT_FOUND = -32601;
/** A2A UnsupportedOperationError: e.g. a peer that does not stream after all. */
export const UNSUPPORTED_OPERATION = -32004;
/** A2A TaskNotCancelableError: the peer's task is already over. */
export const TASK_NOT_CANCELABLE = -32002;

/** The peer is waiting for someone: polling longer changes nothing. */
const INTERRUPTED = new Set<TaskState>(['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED']);

/** What the client knows about the peer's task after a SendMessage or GetTask answer. */
export interface PeerTaskView {
  /** Null when the peer answered with a message instead of a task (nothing to poll). */
  taskId: string | null;
  contextId?: string;
  state: TaskState;
  /** Text of the task's artifacts (or of the direct message). */
  artifactText?: string;
  /** Text of the status message (why FAILED/REJECTED, what INPUT_REQUIRED asks). */
  statusText?: string;
}

/** Thrown when a peer's answer is not an A2A task or message. */
export class PeerProtocolError extends Error {}

/** The stable context of every outbound conversation with one peer (seed: `ctx-oc-<peer>`). */
export function outboundContextId(peer: string): string {
  return `ctx-oc-${peer}`;
}

/** SendMessage params in A2A 1.0 form; `metadata` is the message's (the work's budget, docs/usage.md#across-gateways). */
export function sendMessageParams(
  peer: string,
  text: string,
  messageId: string,
  metadata?: Record<string, unknown>,
): Record<string, unknown> {
  return {
    message: { messageId, role: 'ROLE_USER', contextId: outboundContextId(peer), parts: [{ text }], ...(metadata ? { metadata } : {}) },
    configuration: { returnImmediately: true },
  };
}

/** Terminal or interrupted: the answer will not change by polling. */
export function isSettled(state: TaskState): boolean {
  return isTerminalState(state) || INTERRUPTED.has(state);
}

/** The result of SendMessage / message/send: `{task}` | `{message}` (1.0) or a bare Task | Message (0.3). */
export function readSendResult(result: unknown): PeerTaskView {
  const r = asObject(result, 'SendMessage result');
  if (r.task !== undefined) return readTask(r.task);
  if (r.message !== undefined) return readMessage(r.message);
  if (r.kind === 'message') return readMessage(r);
  if (r.kind === 'task' || (typeof r.id === 'string' && r.status !== undefined)) return readTask(r);
  throw new PeerProtocolError('the SendMessage result holds neither a task nor a message');
}

/** A Task (1.0 proto-JSON or 0.3). GetTask returns one directly. */
export function readTask(raw: unknown): PeerTaskView {
  const t = asObject(raw, 'task');
  if (typeof t.id !== 'string' || !t.id) throw new PeerProtocolError('the task has no id');
  const status = asObject(t.status, 'task status');
  const artifacts = Array.isArray(t.artifacts) ? t.artifacts : [];
  const artifactText = joinTexts(artifacts.flatMap((a) => partsOf((a as Record<string, unknown>)?.parts)));
  const statusText = status.message === undefined ? undefined : joinTexts(partsOf(asObject(status.message, 'status message').parts));
  return {
    taskId: t.id,
    ...(typeof t.contextId === 'string' ? { contextId: t.contextId } : {}),
    state: readState(status.state),
    ...(artifactText ? { artifactText } : {}),
    ...(statusText ? { statusText } : {}),
  };
}

/** The reply text of a settled task: the artifacts, else the status message. */
export function replyText(view: PeerTaskView): string | undefined {
  return view.artifactText ?? view.statusText;
}

/** Accepts `TASK_STATE_*` and the 0.3 spellings (`completed`, `input-required`, ...). */
export function readState(raw: unknown): TaskState {
  if (typeof raw !== 'string') throw new PeerProtocolError('the task status has no state');
  const name = raw.startsWith('TASK_STATE_') ? raw : `TASK_STATE_${raw.toUpperCase().replace(/-/g, '_')}`;
  if (name === 'TASK_STATE_CANCELLED') return 'TASK_STATE_CANCELED';
  if (!isTaskState(name)) throw new PeerProtocolError(`unknown task state ${JSON.stringify(raw.slice(0, 40))}`);
  return name;
}

function readMessage(raw: unknown): PeerTaskView {
  const m = asObject(raw, 'message');
  const text = joinTexts(partsOf(m.parts));
  return {
    taskId: typeof m.taskId === 'string' && m.taskId ? m.taskId : null,
    ...(typeof m.contextId === 'string' ? { contextId: m.contextId } : {}),
    // A direct message is the whole answer: there is no task left running.
    state: 'TASK_STATE_COMPLETED',
    ...(text ? { artifactText: text } : {}),
  };
}

/** The text of a list of parts (1.0 or 0.3), undefined when it has none. */
export function partsText(parts: unknown): string | undefined {
  return joinTexts(partsOf(parts));
}

/** Text of the parts: 1.0 `{text}` / 0.3 `{kind:"text", text}`; `data` as compact JSON; files ignored. */
function partsOf(parts: unknown): string[] {
  if (!Array.isArray(parts)) return [];
  return parts.flatMap((p) => {
    const part = p as Record<string, unknown> | null;
    if (typeof part?.text === 'string') return [part.text];
    if (part && 'data' in part && part.data !== undefined) return [JSON.stringify(part.data)];
    return [];
  });
}

function joinTexts(texts: string[]): string | undefined {
  const joined = texts.join('\n');
  return joined ? joined : undefined;
}

function asObject(value: unknown, what: string): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new PeerProtocolError(`the ${what} is not an object`);
  return value as Record<string, unknown>;
}
