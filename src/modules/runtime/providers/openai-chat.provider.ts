import type { ModelProviderSettings } from '../../config';
import {
  wantsStream,
  type ChatMessage,
  type ModelProvider,
  type ModelRequest,
  type ModelResponse,
  type ToolSpec,
} from '../model-provider.port';
import { buildHeaders, endpoint, postJson, type PostJsonInput } from './http-json';
import { postForEvents } from './model-stream';
import { parseOpenAiResponse } from './openai-response';
import { OpenAiStreamAssembler } from './openai-stream';

/** Wire shapes of POST /chat/completions (only the fields we send or read). */
export interface OpenAiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}
export type OpenAiMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: OpenAiToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/**
 * `openai-chat`: any OpenAI-compatible `/chat/completions` endpoint with function calling (OpenAI, Ollama,
 * vLLM, llama.cpp server, LM Studio). `baseUrl` already ends in `/v1`, as those servers document it.
 */
export class OpenAiChatProvider implements ModelProvider {
  readonly api = 'openai-chat' as const;

  async complete(settings: ModelProviderSettings, request: ModelRequest): Promise<ModelResponse> {
    const call = bearerJsonCall(settings, request, '/chat/completions', openAiRequestBody(request));
    if (!wantsStream(settings, request)) return parseOpenAiResponse(settings, await postJson(call));

    // Usage comes in one last chunk only when asked for (include_usage); the runner sums it like a plain answer's.
    call.body = { ...(call.body as object), stream: true, stream_options: { include_usage: true } };
    const assembler = new OpenAiStreamAssembler(settings, request.onTextDelta);
    const got = await postForEvents(call, (event) => assembler.accept(event.data));
    return got.kind === 'json' ? parseOpenAiResponse(settings, got.body) : assembler.result();
  }
}

/** A JSON POST to `<baseUrl><path>` with the key as a bearer token, as OpenAI's APIs (and the servers copying them) take it. */
export function bearerJsonCall(settings: ModelProviderSettings, request: ModelRequest, path: string, body: unknown): PostJsonInput {
  return {
    settings,
    url: endpoint(settings, path),
    // Local servers (Ollama, llama.cpp, LM Studio) need no key; sending "Bearer undefined" would confuse proxies.
    headers: buildHeaders(
      { 'Content-Type': 'application/json', Authorization: settings.apiKey ? `Bearer ${settings.apiKey}` : undefined },
      settings,
    ),
    body,
    signal: request.signal,
    traceHeaders: request.traceHeaders,
  };
}

export function openAiRequestBody(request: ModelRequest): Record<string, unknown> {
  const messages: OpenAiMessage[] = [];
  if (request.system) messages.push({ role: 'system', content: request.system });
  messages.push(...request.messages.map(toOpenAiMessage));
  const body: Record<string, unknown> = { model: request.model, messages };
  if (request.tools.length) {
    body.tools = request.tools.map(toOpenAiTool);
    body.tool_choice = 'auto';
  }
  return body;
}

function toOpenAiMessage(m: ChatMessage): OpenAiMessage {
  if (m.role === 'user') return { role: 'user', content: m.text };
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, content: m.text };
  if (!m.toolCalls?.length) return { role: 'assistant', content: m.text };
  return {
    role: 'assistant',
    // OpenAI documents null content for a pure tool-call turn; an empty string is rejected by some servers.
    content: m.text || null,
    tool_calls: m.toolCalls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: JSON.stringify(c.arguments) },
    })),
  };
}

function toOpenAiTool(t: ToolSpec) {
  return { type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } };
}
