import type { ModelProviderSettings } from '../config';
import { ModelProviderError } from '../runtime';
import { pluginModelProvider } from './plugin-model-provider';
import { pluginTool } from './plugin-tool';

const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const never = () => new Promise<never>(() => undefined);

describe('plugin code that ignores its signal', () => {
  it("a model provider's chat that never settles fails over at the provider's timeout", async () => {
    const provider = pluginModelProvider('slowpoke', { id: 'slow', chat: never }, logger);
    const settings = { name: 'slow', timeoutMs: 50 } as unknown as ModelProviderSettings;
    const call = provider.complete(settings, {
      agentId: 'main',
      model: 'm',
      system: '',
      messages: [],
      tools: [],
      signal: new AbortController().signal,
    });
    await expect(call).rejects.toThrow(ModelProviderError);
    await expect(call).rejects.toThrow('model provider slow (plugin slowpoke) did not answer within 50 ms');
  });

  it("a model provider's chat that never settles ends with the run's abort", async () => {
    const provider = pluginModelProvider('slowpoke', { id: 'slow', chat: never }, logger);
    const settings = { name: 'slow', timeoutMs: 60_000 } as unknown as ModelProviderSettings;
    const run = new AbortController();
    const call = provider.complete(settings, { agentId: 'main', model: 'm', system: '', messages: [], tools: [], signal: run.signal });
    run.abort(new Error('run cancelled'));
    await expect(call).rejects.toThrow('run cancelled');
  });

  it("a tool's execute that never settles ends with the run's abort", async () => {
    const tool = pluginTool({ name: 'hang', description: 'never answers', parameters: { type: 'object' }, execute: never }, logger);
    const run = new AbortController();
    const call = tool.handler({ agentId: 'main', sessionKey: 'agent:main:main', signal: run.signal }, {});
    run.abort(new Error('run cancelled'));
    await expect(call).rejects.toThrow('run cancelled');
  });
});
