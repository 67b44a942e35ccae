import type { ModelProviderSettings } from '../../config/config.types';
import type { ModelRequest } from '../model-provider.port';
import { EchoProvider, echoWords } from './echo.provider';

describe('EchoProvider', () => {
  const provider = new EchoProvider();
  const settings = (over: Partial<ModelProviderSettings> = {}): ModelProviderSettings => ({
    name: 'echo',
    api: 'echo',
    requiresKey: false,
    headers: {},
    timeoutMs: 120_000,
    stream: true,
    streamDelayMs: 0,
    models: [],
    ...over,
  });
  const request = (text: string, over: Partial<ModelRequest> = {}): ModelRequest => ({
    agentId: 'main',
    model: 'default',
    system: '',
    messages: [{ role: 'user', text }],
    tools: [],
    signal: new AbortController().signal,
    ...over,
  });

  it('streams the reply word by word; the words concatenate to exactly the plain reply', async () => {
    const text = '  hello   wide\tworld\n again ';
    const plain = await provider.complete(settings(), request(text));
    const deltas: string[] = [];
    const streamed = await provider.complete(settings(), request(text, { onTextDelta: (t) => deltas.push(t) }));
    expect(streamed).toEqual(plain);
    expect(deltas).toEqual(['[main]   ', 'hello   ', 'wide\t', 'world\n ', 'again ']);
    expect(deltas.join('')).toBe(plain.text);
  });

  it('echoWords keeps every character', () => {
    for (const s of ['[a] x', '[a]  ', 'one', ' lead', 'a\u00a0b c']) expect(echoWords(s).join('')).toBe(s);
  });

  it('pauses streamDelayMs between words, and never when it does not stream', async () => {
    const deltas: number[] = [];
    const started = Date.now();
    await provider.complete(settings({ streamDelayMs: 60 }), request('a b c', { onTextDelta: () => deltas.push(Date.now() - started) }));
    expect(deltas).toHaveLength(4);
    expect(deltas[3] - deltas[0]).toBeGreaterThanOrEqual(170);
    const plainStarted = Date.now();
    await provider.complete(settings({ streamDelayMs: 500 }), request('a b c'));
    expect(Date.now() - plainStarted).toBeLessThan(100);
  });

  it('settings.stream false answers whole without calling onTextDelta', async () => {
    const deltas: string[] = [];
    const res = await provider.complete(settings({ stream: false }), request('x y', { onTextDelta: (t) => deltas.push(t) }));
    expect(res.text).toBe('[main] x y');
    expect(deltas).toEqual([]);
  });

  it('an abort during the pause rejects with the reason and stops the words', async () => {
    const controller = new AbortController();
    const deltas: string[] = [];
    const call = provider.complete(
      settings({ streamDelayMs: 1000 }),
      request('a b c d', { signal: controller.signal, onTextDelta: (t) => deltas.push(t) }),
    );
    setTimeout(() => controller.abort(new Error('stop now')), 50);
    await expect(call).rejects.toThrow('stop now');
    expect(deltas).toEqual(['[main] ']);
  });
});
