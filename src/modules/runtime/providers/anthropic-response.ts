import type { ModelProviderSettings } from '../../config';
import type { ModelResponse, ToolCall } from '../model-provider.port';
import { malformed, providerError, providerErrorMessage } from './http-json';
import { INVALID_ARGUMENTS_KEY } from './openai-response';

/** The fields of a Messages API answer we read. */
export interface AnthropicResponseBody {
  content?: unknown;
  usage?: { input_tokens?: unknown; output_tokens?: unknown; cache_read_input_tokens?: unknown; cache_creation_input_tokens?: unknown };
  error?: unknown;
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

export function toArguments(input: unknown): Record<string, unknown> {
  if (input === undefined || input === null) return {};
  if (typeof input === 'object' && !Array.isArray(input)) return input as Record<string, unknown>;
  // Same strategy as openai-chat: let the tool registry tell the model its arguments were unusable.
  return { [INVALID_ARGUMENTS_KEY]: JSON.stringify(input) };
}

export function usageOf(usage: AnthropicResponseBody['usage']): ModelResponse['usage'] {
  if (!usage) return undefined;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  return anthropicUsage(
    num(usage.input_tokens),
    num(usage.output_tokens),
    num(usage.cache_read_input_tokens),
    num(usage.cache_creation_input_tokens),
  );
}

/**
 * Anthropic counts the prompt in three parts (input_tokens excludes what was read from and written to the cache); the
 * runtime's inputTokens is every prompt token, as OpenAI's prompt_tokens is, and cachedTokens the part read from the cache.
 */
export function anthropicUsage(
  input: number | undefined,
  output: number | undefined,
  cacheRead: number | undefined,
  cacheWrite: number | undefined,
): ModelResponse['usage'] {
  const cached = cacheRead ?? 0;
  const inputTokens = input === undefined && !cached && !cacheWrite ? undefined : (input ?? 0) + cached + (cacheWrite ?? 0);
  return { inputTokens, outputTokens: output, ...(cached ? { cachedTokens: cached } : {}) };
}
