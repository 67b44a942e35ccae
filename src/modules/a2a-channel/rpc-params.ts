import { A2A_MESSAGES, CONTEXT_ID_PATTERN } from './a2a-limits';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { invalidParams } from './json-rpc';
import { extractMessageText, truncateUtf8 } from './message-text';

/** A validated SendMessage request. */
export interface SendMessageInput {
  messageId: string;
  /** Absent: the gateway opens a new context. */
  contextId?: string;
  /** Extracted, possibly truncated text. */
  text: string;
  truncated: boolean;
  /** `configuration.returnImmediately: true` (or A2A 0.3 `blocking: false`). */
  returnImmediately: boolean;
}

const ROLES = new Set(['ROLE_USER', 'ROLE_AGENT', 'user', 'agent']);

function asObject(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidParams(`${what} must be an object`);
  return value as Record<string, unknown>;
}

/**
 * Validates SendMessage params. The message role is checked for shape only: it is never taken
 * as identity (the authenticated peer is the sender whatever the role says). See docs/a2a.md#sending-tasks.
 */
export function parseSendMessageParams(params: unknown): SendMessageInput {
  const p = asObject(params, 'params');
  const message = asObject(p.message, 'params.message');
  if (typeof message.messageId !== 'string' || !message.messageId) throw invalidParams('message.messageId is required');
  if (message.role !== undefined && !ROLES.has(message.role as string)) {
    throw invalidParams('message.role must be ROLE_USER or ROLE_AGENT');
  }
  if (!Array.isArray(message.parts) || message.parts.length === 0) throw invalidParams('message.parts must be a non-empty array');

  let contextId: string | undefined;
  if (message.contextId !== undefined && message.contextId !== '') {
    if (typeof message.contextId !== 'string' || !CONTEXT_ID_PATTERN.test(message.contextId)) {
      throw invalidParams('message.contextId must match ^[A-Za-z0-9._:-]{1,128}$');
    }
    contextId = message.contextId;
  }
  // Continuing a task would need INPUT_REQUIRED handling the runtime does not have; the context carries the conversation.
  if (message.taskId !== undefined && message.taskId !== '') {
    throw new AppError(ErrorCode.UnsupportedOperation, A2A_MESSAGES.taskContinuation);
  }

  let returnImmediately = false;
  if (p.configuration !== undefined && p.configuration !== null) {
    const configuration = asObject(p.configuration, 'params.configuration');
    const { returnImmediately: immediate, blocking } = configuration;
    if (immediate !== undefined && typeof immediate !== 'boolean') throw invalidParams('configuration.returnImmediately must be a boolean');
    if (blocking !== undefined && typeof blocking !== 'boolean') throw invalidParams('configuration.blocking must be a boolean');
    returnImmediately = immediate === true || blocking === false;
  }

  const { text, truncated } = truncateUtf8(extractMessageText(message.parts));
  return { messageId: message.messageId, contextId, text, truncated, returnImmediately };
}

/** GetTask params: `{id}` (A2A 1.0 and 0.3 alike); `historyLength` and `tenant` are accepted and ignored. */
export function parseGetTaskParams(params: unknown): { id: string } {
  const p = asObject(params, 'params');
  if (typeof p.id !== 'string' || !p.id) throw invalidParams('id is required');
  return { id: p.id };
}
