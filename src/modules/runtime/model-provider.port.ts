import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import type { ModelApi, ModelProviderSettings } from '../config';

/**
 * The ModelProvider port: one interface over the echo model, OpenAI-compatible chat completions
 * and the Anthropic Messages API. Providers are stateless; settings come from the snapshot per call.
 * See docs/runtime.md#model-providers.
 */
export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export type ChatMessage =
  | { role: 'user'; text: string }
  | { role: 'assistant'; text: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; text: string };

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface ModelRequest {
  agentId: string;
  /** The part after `provider/` in the agent's model reference. */
  model: string;
  system: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  signal: AbortSignal;
  /**
   * Set when the run's caller takes the reply as it is written. The provider then streams (unless its settings
   * say `stream: false`) and reports each piece of answer text here, in order, as it arrives; the pieces
   * concatenate to the response's `text`. A provider that does not stream may never call it (the runner then
   * reports the whole text as one piece).
   */
  onTextDelta?: (text: string) => void;
  /** `traceparent`/`tracestate` of the model call's span, sent with the request (absent while tracing is off). */
  traceHeaders?: Readonly<Record<string, string>>;
}

export interface ModelResponse {
  text: string;
  toolCalls: ToolCall[];
  /**
   * What the provider reported: `inputTokens` counts every prompt token, the cached ones included; `cachedTokens` is
   * the part read from the provider's prompt cache (OpenAI's prompt_tokens_details.cached_tokens, Anthropic's
   * cache_read_input_tokens).
   */
  usage?: { inputTokens?: number; outputTokens?: number; cachedTokens?: number };
}

/** Whether a call streams: the caller wants the text as it comes and the provider's settings allow it. */
export function wantsStream(
  settings: ModelProviderSettings,
  request: ModelRequest,
): request is ModelRequest & { onTextDelta: (text: string) => void } {
  return settings.stream && typeof request.onTextDelta === 'function';
}

export interface ModelProvider {
  /** The `api` value this provider speaks (`echo`, `openai-chat`, `anthropic-messages`; `plugin`: a plugin's). */
  readonly api: ModelApi | 'plugin';
  complete(settings: ModelProviderSettings, request: ModelRequest): Promise<ModelResponse>;
}

/**
 * A failed model call, with a message that names the provider and what to fix. The run goes on to its next
 * fallback model (docs/runtime.md#model-fallbacks), or ends as failed when there is none or when the provider
 * refused the request itself (`httpStatus` 400, 413, 422: another model would be sent the same request).
 */
export class ModelProviderError extends AppError {
  constructor(
    message: string,
    /** The provider's HTTP status, when it answered with an error. */
    readonly httpStatus?: number,
  ) {
    super(ErrorCode.UpstreamFailed, message);
    this.name = 'ModelProviderError';
  }
}

export const MODEL_PROVIDERS = Symbol('MODEL_PROVIDERS');
