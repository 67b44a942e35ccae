import type { TranscriptLine } from '../sessions';
import { historyWindow } from './history-window';
import type { ChatMessage, ToolCall } from './model-provider.port';

/** Where a session's turn stopped: the conversation so far and the tool calls of its last round not yet answered. */
export interface ResumedConversation {
  messages: ChatMessage[];
  unanswered: ToolCall[];
}

/**
 * The turn a stopped run left (docs/approvals.md#after-a-restart): the transcript's window up to its end, and the calls
 * of the last assistant line that asked for tools which no tool line answers yet — the one that waited for approval
 * and any after it. Undefined when the transcript does not end in such a round (nothing to resume).
 */
export function resumedConversation(lines: readonly TranscriptLine[]): ResumedConversation | undefined {
  let last = lines.length - 1;
  while (last >= 0 && lines[last].role !== 'assistant') last--;
  const asked = lines[last];
  if (!asked?.toolCalls?.length) return undefined;
  const answered = new Set(
    lines.slice(last + 1).flatMap((l) => (l.role === 'tool' && typeof l.meta?.toolCallId === 'string' ? [l.meta.toolCallId] : [])),
  );
  const unanswered = (asked.toolCalls as ToolCall[]).filter((c) => !answered.has(c.id));
  if (!unanswered.length) return undefined;
  return { messages: historyWindow(lines, ''), unanswered };
}
