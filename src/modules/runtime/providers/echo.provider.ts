import type { ModelProvider, ModelRequest, ModelResponse } from '../model-provider.port';

/** Longest part of the incoming message the echo model repeats. */
export const ECHO_MAX_CHARS = 200;

/**
 * The built-in offline model: replies `[<agentId>] <first 200 chars of the latest message>` and never calls
 * tools. It exists so the gateway runs and can be demonstrated without any API key or network.
 */
export class EchoProvider implements ModelProvider {
  readonly api = 'echo' as const;

  complete(_settings: unknown, request: ModelRequest): Promise<ModelResponse> {
    if (request.signal.aborted) return Promise.reject(abortReason(request.signal));
    const last = [...request.messages].reverse().find((m) => m.role === 'user');
    const text = Array.from(last?.text ?? '')
      .slice(0, ECHO_MAX_CHARS)
      .join('');
    return Promise.resolve({ text: `[${request.agentId}] ${text}`, toolCalls: [] });
  }
}

/** Why a signal was aborted, as an Error (a caller may abort with any value). */
function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error(typeof reason === 'string' ? reason : 'aborted');
}
