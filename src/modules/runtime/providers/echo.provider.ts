import type { ModelProvider, ModelRequest, ModelResponse } from '../model-provider.port';

/** Longest part of the incoming message the echo model repeats. */
export const ECHO_MAX_CHARS = 200;

/**
 * The built-in offline model: replies `[<agentId>] <first 200 chars of the latest message>` and never calls
 * tools. It exists so the gateway runs and can be demonstrated without any API key or network.
 */
export class EchoProvider implements ModelProvider {
  readonly api = 'echo' as const;

  async complete(_settings: unknown, request: ModelRequest): Promise<ModelResponse> {
    if (request.signal.aborted) throw request.signal.reason ?? new Error('aborted');
    const last = [...request.messages].reverse().find((m) => m.role === 'user');
    const text = Array.from(last?.text ?? '').slice(0, ECHO_MAX_CHARS).join('');
    return { text: `[${request.agentId}] ${text}`, toolCalls: [] };
  }
}
