import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../../runtime';

/**
 * An MCP `tools/call` result as the tool result the model reads (docs/mcp.md#what-the-model-reads): text blocks as
 * they are, embedded text resources with their URI, and a note in place of what a model reads no text of (images,
 * audio, binary resources: their type and size, never their bytes); `structuredContent` as `structured` when the
 * server sent no text. At most `maxBytes` of UTF-8 reach the model; the rest is cut with a note. `isError` is an
 * error result carrying the server's text.
 */
export function toolResultOf(result: CallToolResult, maxBytes: number, what: string): ToolResult {
  const text = (result.content ?? []).map(describeBlock).join('\n');
  const structured = result.structuredContent;
  const budget = { left: maxBytes, cut: 0 };
  const shownText = capped(text, budget);
  let shownStructured: unknown;
  if (structured !== undefined && text.length === 0) {
    const json = JSON.stringify(structured);
    if (Buffer.byteLength(json) <= budget.left) shownStructured = structured;
    else budget.cut += Buffer.byteLength(json);
  }
  const note = budget.cut
    ? { truncated: `${budget.cut} bytes of the result were cut: the model reads at most ${maxBytes} bytes (${what} maxOutputBytes)` }
    : {};
  if (result.isError) return { status: 'error', error: shownText || 'the tool reported an error without a message', ...note };
  return {
    status: 'ok',
    ...(shownText ? { result: shownText } : {}),
    ...(shownStructured !== undefined ? { structured: shownStructured } : {}),
    ...note,
  };
}

function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType}, ${base64Bytes(block.data)} bytes, not shown]`;
    case 'resource_link':
      return `[resource ${block.name}: ${block.uri}${block.mimeType ? ` (${block.mimeType})` : ''}]`;
    case 'resource': {
      const r = block.resource;
      if ('text' in r && typeof r.text === 'string') return `[resource ${r.uri}]\n${r.text}`;
      const blob = 'blob' in r && typeof r.blob === 'string' ? r.blob : '';
      return `[resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ''}, ${base64Bytes(blob)} bytes, not shown]`;
    }
    default:
      return `[content of type ${(block as { type: string }).type}, not shown]`;
  }
}

function base64Bytes(data: string): number {
  return Buffer.byteLength(data, 'base64');
}

/** `text` cut to the budget's bytes at a character boundary; what was cut is added to `budget.cut`. */
function capped(text: string, budget: { left: number; cut: number }): string {
  const bytes = Buffer.byteLength(text);
  if (bytes <= budget.left) {
    budget.left -= bytes;
    return text;
  }
  const buffer = Buffer.from(text);
  let end = budget.left;
  // Back off a UTF-8 continuation byte so a character is never split.
  while (end > 0 && (buffer[end] & 0xc0) === 0x80) end--;
  budget.cut += bytes - end;
  budget.left = 0;
  return buffer.subarray(0, end).toString('utf8');
}
