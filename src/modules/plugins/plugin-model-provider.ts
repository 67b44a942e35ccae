import type { ModelProviderSettings } from '../config';
import type { PluginChatResponse, PluginLogger, PluginModelProvider } from '../../plugin-sdk';
import { ModelProviderError, wantsStream, type ModelProvider, type ModelRequest, type ModelResponse } from '../runtime';
import { messageOf } from './plugin-errors';
import { untilAborted } from './with-deadline';

/**
 * A plugin's model API as the runtime's port takes it. What `chat` throws, or an answer that is not one, becomes a
 * ModelProviderError naming the plugin: the run's model error path, so the run goes on to its next fallback model.
 * The call is bounded by the provider's `timeoutMs` like an HTTP provider's, and by the run's abort: the plugin sees
 * both on `ctx.signal`, and a `chat` that ignores it is left behind when it fires.
 */
export function pluginModelProvider(pluginId: string, provider: PluginModelProvider, logger: PluginLogger): ModelProvider {
  return {
    api: 'plugin',
    async complete(settings: ModelProviderSettings, request: ModelRequest): Promise<ModelResponse> {
      const stream = wantsStream(settings, request);
      const signal = AbortSignal.any([request.signal, AbortSignal.timeout(settings.timeoutMs)]);
      const where = `model provider ${settings.name} (plugin ${pluginId})`;
      let answer: PluginChatResponse;
      try {
        const chat = Promise.resolve().then(() =>
          provider.chat(
            { model: request.model, system: request.system, messages: request.messages, tools: request.tools, stream },
            {
              agentId: request.agentId,
              signal,
              logger,
              onTextDelta: (text) => {
                if (stream && typeof text === 'string' && text && !signal.aborted) request.onTextDelta(text);
              },
            },
          ),
        );
        answer = await untilAborted(chat, signal);
      } catch (err) {
        if (request.signal.aborted) throw err;
        if (signal.aborted) throw new ModelProviderError(`${where} did not answer within ${settings.timeoutMs} ms`);
        throw new ModelProviderError(`${where} failed: ${messageOf(err)}`);
      }
      if (!answer || typeof answer.text !== 'string') throw new ModelProviderError(`${where} answered without a text string`);
      if (answer.toolCalls !== undefined && !Array.isArray(answer.toolCalls)) {
        throw new ModelProviderError(`${where} answered toolCalls that is not an array`);
      }
      return { text: answer.text, toolCalls: answer.toolCalls ?? [], ...(answer.usage ? { usage: answer.usage } : {}) };
    },
  };
}
