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
    const message = toChatMessage(line);
    if (message) messages.push(message);
  }
  return messages;
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
