import { TASK_STATES, type TaskState } from '../../../common/a2a-protocol';
import { isRecord } from '../../../common/is-record';
import type { A2aFilePolicy } from '../../config';
import { CONTEXT_ID_PATTERN } from './limits-and-messages';
import { invalidParams } from './errors';
import { type FilePart, readMessageParts } from './message-parts';
import { truncateUtf8 } from './message-text';
import { PROTO_NAMED_FIELDS, withJsonFieldNames } from './proto-field-names';

/** A validated SendMessage request. */
export interface SendMessageInput {
  messageId: string;
  /** Absent: the gateway opens a new context. */
  contextId?: string;
  /** The text and data parts, possibly truncated; may be empty when the message carries files. */
  text: string;
  truncated: boolean;
  /** The file parts, checked against the operator's policy. */
  files: FilePart[];
  /** `configuration.returnImmediately: true` (or A2A 0.3 `blocking: false`). */
  returnImmediately: boolean;
  /** A task the message answers (its INPUT_REQUIRED). */
  taskId?: string;
  /** `configuration.taskPushNotificationConfig`, unread: the task service checks it against the peer's allowed URLs. */
  pushConfig?: Record<string, unknown>;
  /** `configuration.historyLength`: how much of the task's history the answer carries (unset: all). */
  historyLength?: number;
  /** `message.metadata` when it is an object (read for the work's budget a trusted peer carries, docs/usage.md#across-gateways). */
  metadata?: Record<string, unknown>;
}

const ROLES = new Set(['ROLE_USER', 'ROLE_AGENT', 'user', 'agent']);

function asObject(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidParams(`${what} must be an object`);
  return value as Record<string, unknown>;
}

/**
 * Validates SendMessage params; file parts against `files` (`channels.a2a.files`). The message role is checked
 * for shape only: it is never taken as identity (the authenticated peer is the sender whatever the role says).
 * See docs/a2a.md#sending-tasks.
 */
export function parseSendMessageParams(params: unknown, files: A2aFilePolicy): SendMessageInput {
  const p = asObject(params, 'params');
  // Proto field names (message_id, history_length, ...) are read as their JSON names: docs/a2a.md#field-names.
  const message = withJsonFieldNames(asObject(p.message, 'params.message'), PROTO_NAMED_FIELDS.message, 'message.');
  if (typeof message.messageId !== 'string' || !message.messageId) throw invalidParams('message.messageId is required');
  if (!ROLES.has(message.role as string)) throw invalidParams('message.role is required: ROLE_USER or ROLE_AGENT');
  if (!Array.isArray(message.parts) || message.parts.length === 0) throw invalidParams('message.parts must be a non-empty array');

  let contextId: string | undefined;
  if (message.contextId !== undefined && message.contextId !== '') {
    if (typeof message.contextId !== 'string' || !CONTEXT_ID_PATTERN.test(message.contextId)) {
      throw invalidParams('message.contextId must match ^[A-Za-z0-9._:-]{1,128}$');
    }
    contextId = message.contextId;
  }
  let taskId: string | undefined;
  if (message.taskId !== undefined && message.taskId !== '') {
    if (typeof message.taskId !== 'string') throw invalidParams('message.taskId must be a string');
    taskId = message.taskId;
  }

  let returnImmediately = false;
  let historyLength: number | undefined;
  let pushConfig: Record<string, unknown> | undefined;
  if (p.configuration !== undefined && p.configuration !== null) {
    const configuration = withJsonFieldNames(
      asObject(p.configuration, 'params.configuration'),
      PROTO_NAMED_FIELDS.sendConfiguration,
      'configuration.',
    );
    const { returnImmediately: immediate, blocking } = configuration;
    if (immediate !== undefined && typeof immediate !== 'boolean') throw invalidParams('configuration.returnImmediately must be a boolean');
    if (blocking !== undefined && typeof blocking !== 'boolean') throw invalidParams('configuration.blocking must be a boolean');
    returnImmediately = immediate === true || blocking === false;
    historyLength = readHistoryLength(configuration.historyLength, 'configuration.historyLength');
    const push = configuration.taskPushNotificationConfig;
    if (push !== undefined && push !== null) pushConfig = asObject(push, 'params.configuration.taskPushNotificationConfig');
  }

  const parts = readMessageParts(message.parts, files);
  const { text, truncated } = truncateUtf8(parts.text);
  return {
    messageId: message.messageId,
    contextId,
    text,
    truncated,
    files: parts.files,
    returnImmediately,
    ...(taskId !== undefined ? { taskId } : {}),
    ...(historyLength !== undefined ? { historyLength } : {}),
    ...(pushConfig ? { pushConfig } : {}),
    ...(isRecord(message.metadata) ? { metadata: message.metadata } : {}),
  };
}

/** A validated GetTask request. */
export interface GetTaskInput {
  id: string;
  /** The last that many messages of the history; unset: all. */
  historyLength?: number;
}

/** A validated CancelTask or SubscribeToTask request. */
export interface TaskIdInput {
  id: string;
}

/**
 * GetTask params: `{id}` (A2A 1.0 and 0.3 alike); `historyLength` must be a non-negative integer when given (the
 * last that many messages of the history; unset: all); `tenant` is accepted and ignored.
 */
export function parseGetTaskParams(params: unknown): GetTaskInput {
  const p = withJsonFieldNames(asObject(params, 'params'), PROTO_NAMED_FIELDS.getTask);
  if (typeof p.id !== 'string' || !p.id) throw invalidParams('id is required');
  const historyLength = readHistoryLength(p.historyLength);
  return { id: p.id, ...(historyLength !== undefined ? { historyLength } : {}) };
}

/** `historyLength`, when given, is a non-negative integer; null counts as not given. */
function readHistoryLength(value: unknown, name = 'historyLength'): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (!(Number.isInteger(value) && (value as number) >= 0)) throw invalidParams(`${name} must be a non-negative integer`);
  return value as number;
}

/** CancelTask and SubscribeToTask params: `{id}`. */
export function parseTaskIdParams(params: unknown): TaskIdInput {
  const p = asObject(params, 'params');
  if (typeof p.id !== 'string' || !p.id) throw invalidParams('id is required');
  return { id: p.id };
}

/** ListTasks page sizes (the specification's default and maximum). */
export const LIST_TASKS_DEFAULT_PAGE_SIZE = 50;
export const LIST_TASKS_MAX_PAGE_SIZE = 100;

/** A validated ListTasks request; the page token is still opaque here (the task service reads it). */
export interface ListTasksInput {
  contextId?: string;
  state?: TaskState;
  /** Epoch ms of `statusTimestampAfter`. */
  updatedSince?: number;
  pageSize: number;
  pageToken?: string;
  includeArtifacts: boolean;
  /** Messages of each task's history to include; unset: none (a page of full histories would pass the 1 MiB limit). */
  historyLength?: number;
}

/**
 * ListTasks params: `contextId`, `status`, `pageSize` (1..100, default 50), `pageToken`, `historyLength`
 * (non-negative; unset: no history), `statusTimestampAfter` (ISO 8601), `includeArtifacts`
 * (default false); `tenant` is accepted and ignored.
 */
export function parseListTasksParams(params: unknown): ListTasksInput {
  const p = params === undefined || params === null ? {} : withJsonFieldNames(asObject(params, 'params'), PROTO_NAMED_FIELDS.listTasks);
  const out: ListTasksInput = { pageSize: LIST_TASKS_DEFAULT_PAGE_SIZE, includeArtifacts: false };
  if (p.contextId !== undefined && p.contextId !== '') {
    if (typeof p.contextId !== 'string' || !CONTEXT_ID_PATTERN.test(p.contextId))
      throw invalidParams('contextId must match ^[A-Za-z0-9._:-]{1,128}$');
    out.contextId = p.contextId;
  }
  if (p.status !== undefined && p.status !== 'TASK_STATE_UNSPECIFIED') {
    if (!(TASK_STATES as readonly unknown[]).includes(p.status)) throw invalidParams(`status must be one of ${TASK_STATES.join(', ')}`);
    out.state = p.status as TaskState;
  }
  if (p.pageSize !== undefined && p.pageSize !== null) {
    if (!Number.isInteger(p.pageSize) || (p.pageSize as number) < 1 || (p.pageSize as number) > LIST_TASKS_MAX_PAGE_SIZE) {
      throw invalidParams(`pageSize must be an integer 1..${LIST_TASKS_MAX_PAGE_SIZE}`);
    }
    out.pageSize = p.pageSize as number;
  }
  if (p.pageToken !== undefined && p.pageToken !== '') {
    if (typeof p.pageToken !== 'string') throw invalidParams('pageToken must be a string');
    out.pageToken = p.pageToken;
  }
  const historyLength = readHistoryLength(p.historyLength);
  if (historyLength !== undefined) out.historyLength = historyLength;
  if (p.statusTimestampAfter !== undefined && p.statusTimestampAfter !== null) {
    const at = typeof p.statusTimestampAfter === 'string' ? Date.parse(p.statusTimestampAfter) : NaN;
    if (Number.isNaN(at)) throw invalidParams('statusTimestampAfter must be an ISO 8601 timestamp');
    out.updatedSince = at;
  }
  if (p.includeArtifacts !== undefined && p.includeArtifacts !== null) {
    if (typeof p.includeArtifacts !== 'boolean') throw invalidParams('includeArtifacts must be a boolean');
    out.includeArtifacts = p.includeArtifacts;
  }
  return out;
}

/** GetExtendedAgentCard params: none, or `{tenant}` (accepted and ignored, as for every method); nothing to keep. */
export function parseExtendedCardParams(params: unknown): undefined {
  if (params === undefined || params === null) return undefined;
  if (typeof params !== 'object' || Array.isArray(params)) throw invalidParams('params must be an object');
  const { tenant } = params as Record<string, unknown>;
  if (tenant !== undefined && typeof tenant !== 'string') throw invalidParams('tenant must be a string');
  return undefined;
}
