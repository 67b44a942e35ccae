import type { SessionStore } from '../sessions';
import { HISTORY_LINES, historyWindow } from './history-window';
import type { ChatMessage, ToolCall } from './model-provider.port';
import { resumedConversation } from './resumed-conversation';
import type { StartRunInput } from './start-run-input';

/** What a turn starts from: the messages the model is given, and (a resumed turn) the calls still to answer first. */
export interface TurnConversation {
  messages: ChatMessage[];
  unanswered?: ToolCall[];
}

/**
 * A new turn: the user line written (the session created or brought in line with `create` in the same write) and the
 * tail of the transcript before it, from a user turn so tool results are never orphaned, with the question last. A
 * resumed turn (docs/approvals.md#after-a-restart): the transcript as its stopped run left it, with the calls to
 * answer; undefined when there is nothing to resume.
 */
export async function turnConversation(
  sessions: Pick<SessionStore, 'append' | 'history'>,
  input: StartRunInput,
  runId: string,
): Promise<TurnConversation | undefined> {
  if (input.resume) {
    const { lines } = await sessions.history(input.sessionKey, { limit: HISTORY_LINES + 1 });
    return resumedConversation(lines);
  }
  const asked = await sessions.append(
    input.sessionKey,
    { role: 'user', text: input.message, provenance: input.provenance, runId, meta: input.meta },
    input.create ?? {},
  );
  const { lines } = await sessions.history(input.sessionKey, { limit: HISTORY_LINES + 1 });
  return { messages: [...historyWindow(lines, asked.id), { role: 'user', text: input.message }] };
}
