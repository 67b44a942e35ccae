import type { ModelProviderSettings } from '../../config';
import type { ModelResponse } from '../model-provider.port';
import { malformed, providerError, providerErrorMessage } from './http-json';
import { parseToolCall } from './openai-response';

/** The fields of a Responses API `response` object we read. */
export interface ResponsesBody {
  status?: unknown;
  output?: unknown;
  error?: unknown;
  incomplete_details?: { reason?: unknown } | null;
  usage?: { input_tokens?: unknown; output_tokens?: unknown; input_tokens_details?: { cached_tokens?: unknown } | null };
}

interface OutputItem {
  type?: unknown;
  content?: unknown;
  call_id?: unknown;
  name?: unknown;
  arguments?: unknown;
}

/**
 * A `response` object as the reply: the text of its `message` items' `output_text` parts, its `function_call` items
 * as tool calls (in order), its usage. `failed` (or an `error` object) is a provider error naming the provider's
 * message; `incomplete` keeps what was written (a cut answer the model produced, as with a `length` finish); a
 * reasoning item or any other kind is not part of the reply.
 */
export function parseResponsesBody(settings: ModelProviderSettings, raw: unknown): ModelResponse {
  const body = raw as ResponsesBody;
  if (!body || typeof body !== 'object') throw malformed(settings, 'the answer is not a response object');
  if (body.status === 'failed' || (body.error && body.output === undefined)) {
    throw providerError(
      settings,
      `model provider ${settings.name} returned an error: ${providerErrorMessage(settings, JSON.stringify({ error: body.error ?? null }))}`,
    );
  }
  if (!Array.isArray(body.output)) throw malformed(settings, 'no output array');
  let text = '';
  const calls: OutputItem[] = [];
  body.output.forEach((item: OutputItem, i) => {
    if (item?.type === 'function_call') calls.push(item);
    if (item?.type !== 'message') return;
    if (!Array.isArray(item.content)) throw malformed(settings, `output[${i}].content is not an array`);
    for (const part of item.content as Array<{ type?: unknown; text?: unknown; refusal?: unknown }>) {
      if (part?.type === 'output_text' && typeof part.text === 'string') text += part.text;
      // A refusal is the model's answer in words; it is shown like one.
      else if (part?.type === 'refusal' && typeof part.refusal === 'string') text += part.refusal;
    }
  });
  const toolCalls = calls.map((c, i) => parseToolCall(settings, { id: c.call_id, function: { name: c.name, arguments: c.arguments } }, i));
  return { text, toolCalls, usage: responsesUsage(body.usage) };
}

export function responsesUsage(usage: ResponsesBody['usage']): ModelResponse['usage'] {
  if (!usage) return undefined;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const cached = num(usage.input_tokens_details?.cached_tokens);
  return { inputTokens: num(usage.input_tokens), outputTokens: num(usage.output_tokens), ...(cached ? { cachedTokens: cached } : {}) };
}
