import type { ModelProviderSettings } from '../../config';
import {
  wantsStream,
  type ChatMessage,
  type ModelProvider,
  type ModelRequest,
  type ModelResponse,
  type ToolSpec,
} from '../model-provider.port';
import { postJson } from './http-json';
import { bearerJsonCall } from './openai-chat.provider';
import { postForEvents } from './model-stream';
import { parseResponsesBody } from './openai-responses-response';
import { ResponsesStreamAssembler } from './openai-responses-stream';

/** Input items of POST /responses that a conversation becomes (only the shapes we send). */
type ResponsesInputItem =
  | { role: 'user' | 'assistant'; content: string }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string };

/**
 * `openai-responses` (OpenClaw's kind of the same name): OpenAI's Responses API, `POST <baseUrl>/responses`, and the
 * servers that copy it (LM Studio, vLLM, Azure's `/openai/v1`). The conversation is sent whole every time with
 * `store: false`: the gateway keeps the transcript, so nothing is left on the provider's side and no
 * `previous_response_id` chain has to survive a restart or a fallback to another model.
 */
export class OpenAiResponsesProvider implements ModelProvider {
  readonly api = 'openai-responses' as const;

  async complete(settings: ModelProviderSettings, request: ModelRequest): Promise<ModelResponse> {
    const call = bearerJsonCall(settings, request, '/responses', responsesRequestBody(request));
    if (!wantsStream(settings, request)) return parseResponsesBody(settings, await postJson(call));
    call.body = { ...(call.body as object), stream: true };
    const assembler = new ResponsesStreamAssembler(settings, request.onTextDelta);
    const got = await postForEvents(call, (event) => assembler.accept(event.data));
    return got.kind === 'json' ? parseResponsesBody(settings, got.body) : assembler.result();
  }
}

export function responsesRequestBody(request: ModelRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { model: request.model, input: request.messages.flatMap(toInputItems), store: false };
  if (request.system) body.instructions = request.system;
  if (request.tools.length) {
    body.tools = request.tools.map(toResponsesTool);
    body.tool_choice = 'auto';
  }
  return body;
}

function toInputItems(m: ChatMessage): ResponsesInputItem[] {
  if (m.role === 'user') return [{ role: 'user', content: m.text }];
  if (m.role === 'tool') return [{ type: 'function_call_output', call_id: m.toolCallId, output: m.text }];
  const calls: ResponsesInputItem[] = (m.toolCalls ?? []).map((c) => ({
    type: 'function_call',
    call_id: c.id,
    name: c.name,
    arguments: JSON.stringify(c.arguments),
  }));
  // A turn that only called tools has no message item: an empty assistant message is refused by some servers.
  return m.text ? [{ role: 'assistant', content: m.text }, ...calls] : calls;
}

function toResponsesTool(t: ToolSpec) {
  return { type: 'function', name: t.name, description: t.description, parameters: t.parameters };
}
