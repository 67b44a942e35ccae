import type { ModelProviderSettings } from '../../config';
import type { ModelResponse, ToolCall } from '../model-provider.port';
import { malformed, providerError, providerErrorMessage } from './http-json';
import { isRecord } from '../../../common/is-record';

/**
 * Arguments the model sent that are not a JSON object are passed on as `{ [INVALID_ARGUMENTS_KEY]: raw }`
 * rather than failing the run: the tool registry rejects the unknown argument and that error goes back to the
 * model as the tool result, so it can retry with well-formed arguments (small local models often slip once).
 */
export const INVALID_ARGUMENTS_KEY = '__invalid_json';

/** The fields of a chat completion we read. */
export interface OpenAiResponseBody {
  choices?: Array<{ message?: { content?: unknown; tool_calls?: unknown } }>;
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown; prompt_tokens_details?: { cached_tokens?: unknown } | null };
}

export function parseOpenAiResponse(settings: ModelProviderSettings, raw: unknown): ModelResponse {
  const body = raw as OpenAiResponseBody & { error?: unknown };
  // Some compatible proxies report failures as a 200 with an `error` object instead of an HTTP status.
  if (body?.error && !body.choices) {
    throw providerError(
      settings,
      `model provider ${settings.name} returned an error: ${providerErrorMessage(settings, JSON.stringify(body))}`,
    );
  }
  const message = Array.isArray(body?.choices) ? body.choices[0]?.message : undefined;
  if (!message || typeof message !== 'object') throw malformed(settings, 'no choices[0].message');
  if (message.content != null && typeof message.content !== 'string')
    throw malformed(settings, 'choices[0].message.content is not a string');
  const rawCalls = message.tool_calls ?? [];
  if (!Array.isArray(rawCalls)) throw malformed(settings, 'choices[0].message.tool_calls is not an array');
  const toolCalls = rawCalls.map((c, i) => parseToolCall(settings, c, i));
  return { text: message.content ?? '', toolCalls, usage: usageOf(body.usage) };
}

export function parseToolCall(settings: ModelProviderSettings, raw: unknown, index: number): ToolCall {
  const call = raw as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
  const name = call?.function?.name;
  if (typeof name !== 'string' || !name) throw malformed(settings, `tool_calls[${index}] has no function.name`);
  // Some compatible servers omit ids; the tool result must still be matched to its call.
  const id = typeof call.id === 'string' && call.id ? call.id : `call_${index}`;
  return { id, name, arguments: parseArguments(call.function?.arguments) };
}

function parseArguments(raw: unknown): Record<string, unknown> {
  // Ollama and others sometimes send an object instead of the documented JSON string.
  if (isRecord(raw)) return raw;
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return {};
  if (typeof raw === 'string') {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (isRecord(parsed)) return parsed;
    } catch {
      // fall through: reported to the model through the tool registry (see INVALID_ARGUMENTS_KEY)
    }
  }
  return { [INVALID_ARGUMENTS_KEY]: typeof raw === 'string' ? raw : JSON.stringify(raw) };
}

export function usageOf(usage: OpenAiResponseBody['usage']): ModelResponse['usage'] {
  if (!usage) return undefined;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const cached = num(usage.prompt_tokens_details?.cached_tokens);
  return { inputTokens: num(usage.prompt_tokens), outputTokens: num(usage.completion_tokens), ...(cached ? { cachedTokens: cached } : {}) };
}
