import type { TranscriptLine } from '../sessions';
import type { ChatMessage, ToolCall } from './model-provider.port';

/** Transcript lines a run sends the model before its own question (docs/runtime.md). */
export const HISTORY_LINES = 40;

/**
 * What the model is shown of the session: the last HISTORY_LINES lines other than the one the run just asked
 * (`askedLineId`), from the first user line among them, as chat messages (system lines and tool lines without
 * a call id are left out). One pass with no intermediate arrays: a long-lived context does this on every run.
 */
export function historyWindow(lines: readonly TranscriptLine[], askedLineId: string): ChatMessage[] {
  let start = lines.length;
  for (let kept = 0; start > 0 && kept < HISTORY_LINES;) if (lines[--start].id !== askedLineId) kept++;
  while (start < lines.length && (lines[start].role !== 'user' || lines[start].id === askedLineId)) start++;
  const messages: ChatMessage[] = [];
  for (let i = start; i < lines.length; i++) {
    const line = lines[i];
    if (line.id === askedLineId) continue;
    const message = chatMessageOf(line);
    if (message) messages.push(message);
  }
  return messages;
}

/**
 * Each line's chat message, made once. A line stays in the window for the next HISTORY_LINES runs of its session (the
 * store hands out the same line objects from its tail), and reading lines of many shapes is most of what a window
 * costs. Frozen, since every later run shares it; a line the store no longer holds is dropped with it.
 */
const chatMessages = new WeakMap<TranscriptLine, Readonly<ChatMessage> | null>();

function chatMessageOf(line: TranscriptLine): Readonly<ChatMessage> | undefined {
  let message = chatMessages.get(line);
  if (message === undefined) {
    const made = toChatMessage(line);
    message = made ? Object.freeze(made) : null;
    chatMessages.set(line, message);
  }
  return message ?? undefined;
}

function toChatMessage(line: TranscriptLine): ChatMessage | undefined {
  if (line.role === 'user') return { role: 'user', text: line.text };
  if (line.role === 'assistant') return { role: 'assistant', text: line.text, toolCalls: line.toolCalls as ToolCall[] | undefined };
  const { toolCallId, name } = line.meta ?? {};
  if (line.role === 'tool' && typeof toolCallId === 'string' && toolCallId) {
    return { role: 'tool', toolCallId, name: typeof name === 'string' ? name : '', text: line.text };
  }
  return undefined;
}
