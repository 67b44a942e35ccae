import type { ModelProviderSettings } from '../../config';
import type { ChatMessage, ModelProvider, ModelRequest, ModelResponse, ToolCall } from '../model-provider.port';
import { buildHeaders, endpoint, malformed, postJson, providerError, providerErrorMessage } from './http-json';
import { INVALID_ARGUMENTS_KEY } from './openai-chat.provider';

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

interface AnthropicResponseBody {
  content?: unknown;
  usage?: { input_tokens?: unknown; output_tokens?: unknown };
  error?: unknown;
}

/** `anthropic-messages`: the Anthropic Messages API with tool use. `baseUrl` is the host, without `/v1`. */
export class AnthropicMessagesProvider implements ModelProvider {
  readonly api = 'anthropic-messages' as const;

  async complete(settings: ModelProviderSettings, request: ModelRequest): Promise<ModelResponse> {
    const body = await postJson({
      settings,
      url: endpoint(settings, '/v1/messages'),
      headers: buildHeaders(
        { 'content-type': 'application/json', 'anthropic-version': ANTHROPIC_VERSION, 'x-api-key': settings.apiKey },
        settings,
      ),
      body: anthropicRequestBody(request),
      signal: request.signal,
    });
    return parseAnthropicResponse(settings, body);
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

export function parseAnthropicResponse(settings: ModelProviderSettings, raw: unknown): ModelResponse {
  const body = raw as AnthropicResponseBody;
  if (body?.error && !body.content) {
    throw providerError(
      settings,
      `model provider ${settings.name} returned an error: ${providerErrorMessage(settings, JSON.stringify(body))}`,
    );
  }
  if (!Array.isArray(body?.content)) throw malformed(settings, 'no content[] array');
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  body.content.forEach((block: unknown, i: number) => {
    const b = block as { type?: unknown; text?: unknown; id?: unknown; name?: unknown; input?: unknown };
    if (b?.type === 'text') {
      if (typeof b.text !== 'string') throw malformed(settings, `content[${i}].text is not a string`);
      texts.push(b.text);
    } else if (b?.type === 'tool_use') {
      if (typeof b.name !== 'string' || !b.name) throw malformed(settings, `content[${i}] (tool_use) has no name`);
      const id = typeof b.id === 'string' && b.id ? b.id : `toolu_${i}`;
      toolCalls.push({ id, name: b.name, arguments: toArguments(b.input) });
    }
    // Other block kinds (thinking, server tools) carry nothing the runner can use; they are skipped.
  });
  return { text: texts.join('\n'), toolCalls, usage: usageOf(body.usage) };
}

function toArguments(input: unknown): Record<string, unknown> {
  if (input === undefined || input === null) return {};
  if (typeof input === 'object' && !Array.isArray(input)) return input as Record<string, unknown>;
  // Same strategy as openai-chat: let the tool registry tell the model its arguments were unusable.
  return { [INVALID_ARGUMENTS_KEY]: JSON.stringify(input) };
}

function usageOf(usage: AnthropicResponseBody['usage']): ModelResponse['usage'] {
  if (!usage) return undefined;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  return { inputTokens: num(usage.input_tokens), outputTokens: num(usage.output_tokens) };
}
