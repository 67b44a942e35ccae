import type { ToolResult } from '../runtime';

/**
 * What a session tool answers when an argument that names a session is not a session key (sessions_send's and
 * sessions_history's `sessionKey`, session_status's): one wording for every tool, the text as the model sent it.
 */
export function notASessionKey(raw: string): ToolResult {
  return { status: 'error', error: `"${raw}" is not a session key (expected agent:<agentId>:<rest>)` };
}
