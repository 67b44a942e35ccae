import type { ModelProviderSettings } from '../../config';
import type { ModelResponse } from '../model-provider.port';
import { malformed, providerError, providerErrorMessage, streamEventObject } from './http-json';
import { parseToolCall, usageOf, type OpenAiResponseBody } from './openai-response';
import { isRecord } from '../../../common/is-record';

/** One `chat.completion.chunk` (only the fields we read). */
interface OpenAiChunk {
  choices?: Array<{ delta?: { content?: unknown; tool_calls?: unknown }; finish_reason?: unknown }>;
  usage?: OpenAiResponseBody['usage'];
  error?: unknown;
}

/** A tool call being assembled from its fragments: the first names it, the others add to its arguments. */
interface PartialCall {
  id?: string;
  name?: string;
  /** Argument text so far; an object when a server sends the arguments whole (Ollama does). */
  arguments: string | Record<string, unknown>;
}

/**
 * Builds a chat completion from its streamed chunks (`stream: true`): text deltas are reported as they come,
 * tool-call fragments are joined by their `index`, the usage chunk (`stream_options.include_usage`) is kept.
 * The stream is complete at `data: [DONE]`, or when it ends after a chunk with a `finish_reason` (servers that
 * omit the marker); anything shorter is an error, never a silently cut answer.
 */
export class OpenAiStreamAssembler {
  private text = '';
  private readonly calls: PartialCall[] = [];
  private usage: ModelResponse['usage'];
  private finished = false;
  private done = false;

  constructor(
    private readonly settings: ModelProviderSettings,
    private readonly onText: (text: string) => void,
  ) {}

  /** One event's data; `'stop'` at the end marker. Throws ModelProviderError on an error chunk or a malformed one. */
  accept(data: string): 'stop' | undefined {
    if (data.trim() === '[DONE]') {
      this.done = true;
      return 'stop';
    }
    const parsed = streamEventObject(this.settings, data);
    const chunk = parsed as unknown as OpenAiChunk;
    // OpenAI and compatible servers report a failure that happens after the 200 as an `error` chunk.
    if (chunk.error) {
      const detail = providerErrorMessage(this.settings, JSON.stringify({ error: chunk.error }));
      throw providerError(this.settings, `model provider ${this.settings.name} failed while streaming: ${detail}`);
    }
    if (chunk.usage) this.usage = usageOf(chunk.usage);
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!choice) return undefined; // the usage chunk has `choices: []`
    const delta = choice.delta ?? {};
    if (delta.content != null && typeof delta.content !== 'string') throw malformed(this.settings, 'a delta.content is not a string');
    if (delta.content) {
      this.text += delta.content;
      this.onText(delta.content);
    }
    if (delta.tool_calls != null) this.addToolCallFragments(delta.tool_calls);
    if (choice.finish_reason) this.finished = true;
    return undefined;
  }

  /** The whole answer once the stream is over. */
  result(): ModelResponse {
    if (!this.done && !this.finished) {
      throw providerError(
        this.settings,
        `model provider ${this.settings.name} ended its stream before the answer was complete (no finish_reason, no [DONE])`,
      );
    }
    // Indexes may skip (a fragment for index 2 before any for 1): the holes are not calls.
    const calls = this.calls.filter((c): c is PartialCall => c !== undefined);
    const toolCalls = calls.map((c, i) =>
      parseToolCall(this.settings, { id: c.id, function: { name: c.name, arguments: c.arguments } }, i),
    );
    return { text: this.text, toolCalls, usage: this.usage };
  }

  private addToolCallFragments(raw: unknown): void {
    if (!Array.isArray(raw)) throw malformed(this.settings, 'a delta.tool_calls is not an array');
    for (const fragment of raw as Array<{ index?: unknown; id?: unknown; function?: { name?: unknown; arguments?: unknown } }>) {
      // `index` says which call a fragment continues; a server that sends every call whole may leave it out.
      const index = typeof fragment?.index === 'number' && Number.isInteger(fragment.index) ? fragment.index : this.calls.length;
      if (index < 0 || index > 127) throw malformed(this.settings, `a tool call fragment has index ${index}`);
      const call = (this.calls[index] ??= { arguments: '' });
      if (typeof fragment.id === 'string' && fragment.id) call.id ??= fragment.id;
      const fn = fragment.function;
      if (typeof fn?.name === 'string' && fn.name) call.name ??= fn.name;
      if (typeof fn?.arguments === 'string') {
        call.arguments = typeof call.arguments === 'string' ? call.arguments + fn.arguments : fn.arguments;
      } else if (isRecord(fn?.arguments)) {
        call.arguments = fn.arguments;
      }
    }
  }
}
