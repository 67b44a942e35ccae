import type { ModelProviderSettings } from '../../src/modules/config/config.types';
import type { ModelRequest } from '../../src/modules/runtime/model-provider.port';

/** A provider's settings as the specs of one API use them: `base` names it, `over` changes one field. */
export function providerSettings(
  base: Pick<ModelProviderSettings, 'name' | 'api' | 'baseUrl' | 'requiresKey'> & Partial<ModelProviderSettings>,
  over: Partial<ModelProviderSettings> = {},
): ModelProviderSettings {
  return { headers: {}, timeoutMs: 5000, stream: true, streamDelayMs: 0, models: [], ...base, ...over };
}

/** A one-message request of agent `main` to `model`; `deltas`, when given, collects the streamed text (a streaming call). */
export function modelRequest(model: string, over: Partial<ModelRequest> = {}, deltas?: string[]): ModelRequest {
  return {
    agentId: 'main',
    model,
    system: 'You are main.',
    messages: [{ role: 'user', text: 'hello' }],
    tools: [],
    signal: new AbortController().signal,
    ...(deltas ? { onTextDelta: (text: string) => deltas.push(text) } : {}),
    ...over,
  };
}

/** The error `p` rejects with; fails the spec when it resolves. */
export async function failure(p: Promise<unknown>): Promise<Error> {
  const err = await p.then(
    () => undefined,
    (e: Error) => e,
  );
  if (!err) throw new Error('expected the call to fail');
  return err;
}
