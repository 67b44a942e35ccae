import type { ModelProviderSettings } from '../../config';
import type { ModelResponse } from '../model-provider.port';
import { providerError, providerErrorMessage, streamEventObject } from './http-json';
import { parseResponsesBody } from './openai-responses-response';

/**
 * Reads a streamed Responses API answer (`stream: true`): `response.output_text.delta` events are reported as they
 * come; the reply is the `response` of the closing `response.completed` (or `response.incomplete`), which holds the
 * whole output — text, function calls with their complete arguments, usage — so nothing is assembled from fragments.
 * An `error` event or `response.failed` is a provider error; a stream that ends without a closing event is an error,
 * never a silently cut answer.
 */
export class ResponsesStreamAssembler {
  private final?: ModelResponse;

  constructor(
    private readonly settings: ModelProviderSettings,
    private readonly onText: (text: string) => void,
  ) {}

  /** One event's data (every event names its `type`); `'stop'` once the response is closed. */
  accept(data: string): 'stop' | undefined {
    const event = streamEventObject(this.settings, data) as { type?: unknown; delta?: unknown; response?: unknown; message?: unknown };
    switch (event.type) {
      case 'response.output_text.delta':
        if (typeof event.delta === 'string' && event.delta) this.onText(event.delta);
        return undefined;
      case 'response.completed':
      case 'response.incomplete':
        this.final = parseResponsesBody(this.settings, event.response);
        return 'stop';
      case 'response.failed':
        return this.fail(JSON.stringify({ error: (event.response as { error?: unknown } | undefined)?.error ?? null }));
      case 'error':
        return this.fail(JSON.stringify({ error: event }));
      default:
        return undefined;
    }
  }

  /** The whole answer once the stream is over. */
  result(): ModelResponse {
    if (this.final) return this.final;
    throw providerError(
      this.settings,
      `model provider ${this.settings.name} ended its stream before the answer was complete (no response.completed)`,
    );
  }

  private fail(raw: string): never {
    throw providerError(
      this.settings,
      `model provider ${this.settings.name} failed while streaming: ${providerErrorMessage(this.settings, raw)}`,
    );
  }
}
