import { fromV03State, isTaskState, toV03State, V03_TASK_STATES, type V03TaskState } from '../../../common/a2a-protocol';
import { isRecord } from '../../../common/is-record';
import type { A2aOperation } from './methods';
import { corePushResultToV03, type PushOperation, v03PushParamsToCore } from './v03-push';
import { invalidParams, type JsonRpcErrorObject } from './errors';
import type { ListTasksResult, WireMessage, WireTask } from '../model/task';

/**
 * A2A 0.3 on the wire, translated to and from the 1.0 shapes the task service speaks: requests are rewritten
 * into their 1.0 form before they are validated, results and errors are rewritten on the way out. The task
 * service never sees a 0.3 shape. What differs (docs/a2a.md#protocol-versions):
 *
 * - parts carry a `kind` (`{kind: "text", text}`, `{kind: "data", data}`, `{kind: "file", file}`);
 * - roles are `user` / `agent`, states kebab case (`completed`, `input-required`);
 * - a task is tagged `kind: "task"`, a message `kind: "message"`, and `message/send` answers with the task
 *   itself rather than `{task}`;
 * - `configuration.blocking: false` is 1.0's `returnImmediately: true`;
 * - errors have the same codes but no `google.rpc.ErrorInfo` in `data` (0.3 defines none).
 */

export interface V03Part {
  kind: 'text';
  text: string;
}

export interface V03Message {
  kind: 'message';
  messageId: string;
  contextId: string;
  taskId: string;
  role: 'user' | 'agent';
  parts: V03Part[];
  metadata?: Record<string, unknown>;
}

export interface V03Task {
  kind: 'task';
  id: string;
  contextId: string;
  status: { state: V03TaskState; timestamp: string; message?: V03Message };
  artifacts?: Array<{ artifactId: string; parts: V03Part[] }>;
  /** Absent when the 1.0 task leaves it out (`historyLength: 0`, ListTasks by default). */
  history?: V03Message[];
}

function isPushOperation(operation: A2aOperation): operation is PushOperation {
  return (
    operation === 'createPushConfig' || operation === 'getPushConfig' || operation === 'listPushConfigs' || operation === 'deletePushConfig'
  );
}

/** 0.3 roles; the 1.0 names are understood too, since reading them costs nothing and refusing helps no one. */
const ROLES = new Map([
  ['user', 'ROLE_USER'],
  ['agent', 'ROLE_AGENT'],
  ['ROLE_USER', 'ROLE_USER'],
  ['ROLE_AGENT', 'ROLE_AGENT'],
]);

/** A 0.3 request's params in their 1.0 form; what is not 0.3-specific passes unchanged, to be judged by the 1.0 rules. */
export function v03ParamsToCore(operation: A2aOperation, params: unknown): unknown {
  if (!isRecord(params)) return params;
  if (operation === 'sendMessage' || operation === 'sendStreamingMessage') return sendParamsToCore(params);
  if (operation === 'listTasks' && typeof params.status === 'string') return { ...params, status: stateFilterToCore(params.status) };
  if (isPushOperation(operation)) return v03PushParamsToCore(operation, params);
  return params;
}

function sendParamsToCore(params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...params };
  if (isRecord(params.message)) out.message = messageToCore(params.message);
  if (isRecord(params.configuration)) {
    const { blocking, pushNotificationConfig, ...configuration } = params.configuration;
    // 0.3 blocks unless told not to; 1.0 says the same thing the other way round.
    if (typeof blocking === 'boolean') configuration.returnImmediately = !blocking;
    else if (blocking !== undefined) configuration.blocking = blocking;
    if (pushNotificationConfig !== undefined) {
      configuration.taskPushNotificationConfig = isRecord(pushNotificationConfig)
        ? v03PushParamsToCore('createPushConfig', { pushNotificationConfig })
        : pushNotificationConfig;
    }
    out.configuration = configuration;
  }
  return out;
}

function messageToCore(message: Record<string, unknown>): Record<string, unknown> {
  const { kind: _kind, ...rest } = message;
  const role = typeof message.role === 'string' ? ROLES.get(message.role) : undefined;
  if (!role) throw invalidParams('message.role is required: "user" or "agent"');
  return { ...rest, role, ...(Array.isArray(message.parts) ? { parts: message.parts.map(partToCore) } : {}) };
}

/**
 * `{kind: "text", text}` → `{text}`, `{kind: "data", data}` → `{data}`; a file part keeps its 0.3 `file`
 * object, which the part reader takes as it is (message-parts.ts).
 */
function partToCore(part: unknown): unknown {
  if (!isRecord(part)) return part;
  const { kind: _kind, ...rest } = part;
  return rest;
}

/** A 0.3 state name as the 1.0 filter (0.3's `unknown` filters nothing, as 1.0's UNSPECIFIED); 1.0 names pass too. */
function stateFilterToCore(status: string): string {
  if (status === 'unknown') return 'TASK_STATE_UNSPECIFIED';
  const state = fromV03State(status);
  if (state) return state;
  if (isTaskState(status)) return status;
  throw invalidParams(`status must be one of ${V03_TASK_STATES.join(', ')}`);
}

/** A result of the task service in its 0.3 form. */
export function coreResultToV03(operation: A2aOperation, result: unknown): unknown {
  switch (operation) {
    case 'sendMessage':
      return taskToV03((result as { task: WireTask }).task);
    case 'getTask':
    case 'cancelTask':
      return taskToV03(result as WireTask);
    case 'listTasks': {
      const page = result as ListTasksResult;
      return { ...page, tasks: page.tasks.map(taskToV03) };
    }
    case 'getExtendedAgentCard':
      // Already in 0.3 form: the card service renders it in the call's version, then signs that form.
      return result;
    case 'sendStreamingMessage':
    case 'subscribeToTask':
      throw new Error('a stream is translated item by item (streamItemToV03)');
    case 'createPushConfig':
    case 'getPushConfig':
    case 'listPushConfigs':
    case 'deletePushConfig':
      return corePushResultToV03(operation, result);
    default: {
      const unknown: never = operation;
      throw new Error(`no 0.3 form for the result of ${String(unknown)}`);
    }
  }
}

/** A 1.0 task in its 0.3 form; `artifacts` stays absent when the 1.0 task leaves it out (ListTasks). */
export function taskToV03(task: Omit<WireTask, 'artifacts'> & Partial<Pick<WireTask, 'artifacts'>>): V03Task {
  return {
    kind: 'task',
    id: task.id,
    contextId: task.contextId,
    status: statusToV03(task.status),
    ...(task.artifacts ? { artifacts: task.artifacts.map(artifactToV03) } : {}),
    ...(task.history ? { history: task.history.map(messageToV03) } : {}),
  };
}

/**
 * One item of a stream (a 1.0 StreamResponse, task-events.ts) in its 0.3 form: the task, or a `status-update` with
 * 0.3's `final` flag (the stream ends with it), or an `artifact-update`.
 */
export function streamItemToV03(body: string, closes: boolean): string {
  const item = JSON.parse(body) as {
    task?: WireTask;
    statusUpdate?: { taskId: string; contextId: string; status: WireTask['status'] };
    artifactUpdate?: { taskId: string; contextId: string; artifact: WireTask['artifacts'][number]; append: boolean; lastChunk: boolean };
  };
  if (item.task) return JSON.stringify(taskToV03(item.task));
  if (item.statusUpdate) {
    const { taskId, contextId, status } = item.statusUpdate;
    return JSON.stringify({ kind: 'status-update', taskId, contextId, status: statusToV03(status), final: closes });
  }
  const update = item.artifactUpdate;
  if (!update) throw new Error('a stream item is a task, a status update or an artifact update');
  const { taskId, contextId, artifact, append, lastChunk } = update;
  return JSON.stringify({ kind: 'artifact-update', taskId, contextId, artifact: artifactToV03(artifact), append, lastChunk });
}

function statusToV03(status: WireTask['status']): V03Task['status'] {
  const out: V03Task['status'] = { state: toV03State(status.state), timestamp: status.timestamp };
  if (status.message) out.message = messageToV03(status.message);
  return out;
}

function artifactToV03(artifact: WireTask['artifacts'][number]): { artifactId: string; parts: V03Part[] } {
  return { artifactId: artifact.artifactId, parts: artifact.parts.map(textPartToV03) };
}

function messageToV03(message: WireMessage): V03Message {
  return {
    kind: 'message',
    messageId: message.messageId,
    contextId: message.contextId,
    taskId: message.taskId,
    role: message.role === 'ROLE_USER' ? 'user' : 'agent',
    parts: message.parts.map(textPartToV03),
    ...(message.metadata ? { metadata: message.metadata } : {}),
  };
}

function textPartToV03(part: { text: string }): V03Part {
  return { kind: 'text', text: part.text };
}

/** The same code and message; the ErrorInfo is a 1.0 construct a 0.3 client does not read. */
export function errorToV03(error: JsonRpcErrorObject): JsonRpcErrorObject {
  return { code: error.code, message: error.message };
}
