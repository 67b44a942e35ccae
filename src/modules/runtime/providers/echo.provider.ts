import type { ModelProviderSettings } from '../../config';
import { wantsStream, type ModelProvider, type ModelRequest, type ModelResponse } from '../model-provider.port';

/** Longest part of the incoming message the echo model repeats. */
export const ECHO_MAX_CHARS = 200;

/**
 * The built-in offline model: replies `[<agentId>] <first 200 chars of the latest message>` and never calls
 * tools. It exists so the gateway runs and can be demonstrated without any API key or network. Asked to
 * stream, it sends the same reply word by word (each word with the spaces after it), `streamDelayMs` apart.
 */
export class EchoProvider implements ModelProvider {
  readonly api = 'echo' as const;

  async complete(settings: ModelProviderSettings, request: ModelRequest): Promise<ModelResponse> {
    if (request.signal.aborted) throw abortReason(request.signal);
    const last = [...request.messages].reverse().find((m) => m.role === 'user');
    const text = Array.from(last?.text ?? '')
      .slice(0, ECHO_MAX_CHARS)
      .join('');
    const reply = `[${request.agentId}] ${text}`;
    if (wantsStream(settings, request)) {
      const words = echoWords(reply);
      for (let i = 0; i < words.length; i++) {
        if (i > 0 && settings.streamDelayMs > 0) await pause(settings.streamDelayMs, request.signal);
        if (request.signal.aborted) throw abortReason(request.signal);
        request.onTextDelta(words[i]);
      }
    }
    return { text: reply, toolCalls: [] };
  }
}

/** The reply cut into words that concatenate back to it exactly (whitespace stays with the word before it). */
export function echoWords(reply: string): string[] {
  return reply.match(/\s*\S+\s*/g) ?? (reply ? [reply] : []);
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Why a signal was aborted, as an Error (a caller may abort with any value). */
function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error(typeof reason === 'string' ? reason : 'aborted');
}
