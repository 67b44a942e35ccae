import type { ModelProviderSettings } from '../../config';
import { wantsStream, type ChatMessage, type ModelProvider, type ModelRequest, type ModelResponse } from '../model-provider.port';
import { AnthropicStreamAssembler } from './anthropic-stream';
import { parseAnthropicResponse } from './anthropic-response';
import { buildHeaders, endpoint, postJson, type PostJsonInput } from './http-json';
import { postForEvents } from './model-stream';

/** The Messages API version this code speaks; sent on every request as the API requires. */
export const ANTHROPIC_VERSION = '2023-06-01';
/** The API requires max_tokens; large enough for an agent turn, small enough to bound a runaway answer. */
export const ANTHROPIC_MAX_TOKENS = 4096;

/** Wire shapes of POST /v1/messages (only the fields we send or read). */
export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string };
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

/** `anthropic-messages`: the Anthropic Messages API with tool use. `baseUrl` is the host, without `/v1`. */
export class AnthropicMessagesProvider implements ModelProvider {
  readonly api = 'anthropic-messages' as const;

  async complete(settings: ModelProviderSettings, request: ModelRequest): Promise<ModelResponse> {
    const call: PostJsonInput = {
      settings,
      url: endpoint(settings, '/v1/messages'),
      headers: buildHeaders(
        { 'content-type': 'application/json', 'anthropic-version': ANTHROPIC_VERSION, 'x-api-key': settings.apiKey },
        settings,
      ),
      body: anthropicRequestBody(request),
      signal: request.signal,
      traceHeaders: request.traceHeaders,
    };
    if (!wantsStream(settings, request)) return parseAnthropicResponse(settings, await postJson(call));

    call.body = { ...(call.body as object), stream: true };
    const assembler = new AnthropicStreamAssembler(settings, request.onTextDelta);
    const got = await postForEvents(call, (event) => assembler.accept(event.event, event.data));
    return got.kind === 'json' ? parseAnthropicResponse(settings, got.body) : assembler.result();
  }
}

export function anthropicRequestBody(request: ModelRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { model: request.model, max_tokens: ANTHROPIC_MAX_TOKENS };
  // The system prompt is a top-level field here, not a message.
  if (request.system) body.system = request.system;
  body.messages = toAnthropicMessages(request.messages);
  if (request.tools.length) {
    body.tools = request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
  }
  return body;
}

/**
 * Our flat message list → the API's strictly alternating user/assistant turns. Tool results travel as
 * `tool_result` blocks in a user turn, so a run of tool results (and any user text after them) merges into
 * one user message, tool results first as the API requires. Empty text blocks are dropped: the API rejects them.
 */
export function toAnthropicMessages(messages: ChatMessage[]): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  for (const m of messages) {
    const { role, blocks } = toBlocks(m);
    if (!blocks.length) continue;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  }
  return out;
}

function toBlocks(m: ChatMessage): { role: AnthropicMessage['role']; blocks: AnthropicBlock[] } {
  const text = (t: string): AnthropicBlock[] => (t ? [{ type: 'text', text: t }] : []);
  if (m.role === 'user') return { role: 'user', blocks: text(m.text) };
  if (m.role === 'tool') return { role: 'user', blocks: [{ type: 'tool_result', tool_use_id: m.toolCallId, content: m.text }] };
  const calls: AnthropicBlock[] = (m.toolCalls ?? []).map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.arguments }));
  return { role: 'assistant', blocks: [...text(m.text), ...calls] };
}
