import { failure, modelRequest, providerSettings } from '../../../../test/support/provider-spec';
import { FakeOpenAiServer, tokenText } from '../../../../test/support/fake-openai-server';
import type { FakeSseEvent } from '../../../../test/support/fake-model-server';
import type { ModelProviderSettings } from '../../config/config.types';
import { ModelProviderError, ModelRequest } from '../model-provider.port';
import { OpenAiChatProvider } from './openai-chat.provider';
import { waitUntil } from '../../../../test/support/wait-until';

/** The streaming path of openai-chat (`stream: true`), against the fake's exact SSE wire format. */
describe('OpenAiChatProvider streaming', () => {
  const provider = new OpenAiChatProvider();
  let server: FakeOpenAiServer;

  beforeAll(async () => {
    server = await new FakeOpenAiServer().start();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  const settings = (over: Partial<ModelProviderSettings> = {}): ModelProviderSettings =>
    providerSettings({ name: 'local', api: 'openai-chat', baseUrl: server.baseUrl, requiresKey: false }, over);
  /** A streaming request; `deltas` collects what the provider reports. */
  const streaming = (deltas: string[], over: Partial<ModelRequest> = {}): ModelRequest => modelRequest('gpt-test', over, deltas);
  /** A step that answers with these chunks (data only), then `[DONE]`. */
  const chunks =
    (...choices: unknown[]) =>
    () => ({
      status: 200,
      events: [
        ...choices.map((c): FakeSseEvent => ({ data: JSON.stringify({ object: 'chat.completion.chunk', choices: [c] }) })),
        { data: '[DONE]' },
      ],
    });

  it('asks for a stream with usage and reports each piece of text in order; the pieces make the answer', async () => {
    server.script(server.text('Hello there, how can I help?'));
    const deltas: string[] = [];
    const res = await provider.complete(settings(), streaming(deltas));

    expect(server.requests[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(deltas).toEqual(['Hello ', 'there, ', 'how ', 'can ', 'I ', 'help?']);
    expect(res).toEqual({ text: 'Hello there, how can I help?', toolCalls: [], usage: { inputTokens: 11, outputTokens: 7 } });
  });

  it('reads the cached prompt tokens of the usage chunk', async () => {
    server.script(server.text('cached', { prompt_tokens: 500, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 384 } }));
    const res = await provider.complete(settings(), streaming([]));
    expect(res.usage).toEqual({ inputTokens: 500, outputTokens: 3, cachedTokens: 384 });
  });

  it('assembles a tool call from its fragments, and the next round streams its answer', async () => {
    server.script(
      server.toolCall('session_status', { sessionKey: 'agent:main:main' }, 'Let me look.'),
      server.textAfterToolResult('all idle'),
    );
    const first: string[] = [];
    const call = await provider.complete(settings(), streaming(first));
    expect(first).toEqual(['Let ', 'me ', 'look.']);
    expect(call).toEqual({
      text: 'Let me look.',
      toolCalls: [{ id: 'call_1', name: 'session_status', arguments: { sessionKey: 'agent:main:main' } }],
      usage: { inputTokens: 11, outputTokens: 7 },
    });

    const second: string[] = [];
    const res = await provider.complete(
      settings(),
      streaming(second, {
        messages: [
          { role: 'user', text: 'hello' },
          { role: 'assistant', text: call.text, toolCalls: call.toolCalls },
          { role: 'tool', toolCallId: 'call_1', name: 'session_status', text: '{"status":"ok"}' },
        ],
      }),
    );
    expect(server.violations).toEqual([]);
    expect(second).toEqual(['all ', 'idle']);
    expect(res.text).toBe('all idle');
  });

  it('keeps interleaved calls apart by index, takes whole-object arguments, and names calls without an id', async () => {
    server.script(
      chunks(
        { delta: { tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'first', arguments: '{"a":' } }] } },
        { delta: { tool_calls: [{ index: 1, type: 'function', function: { name: 'second', arguments: { whole: true } } }] } },
        { delta: { tool_calls: [{ index: 0, function: { arguments: '1}' } }] } },
        { delta: {}, finish_reason: 'tool_calls' },
      ),
    );
    const res = await provider.complete(settings(), streaming([]));
    expect(res.toolCalls).toEqual([
      { id: 'call_a', name: 'first', arguments: { a: 1 } },
      { id: 'call_1', name: 'second', arguments: { whole: true } },
    ]);
  });

  it('an error chunk mid-stream fails with the provider message, after the text that came before it', async () => {
    server.script(server.streamError('Partial answer', 'The server had an error while processing your request.'));
    const deltas: string[] = [];
    const err = await failure(provider.complete(settings(), streaming(deltas)));
    expect(err).toBeInstanceOf(ModelProviderError);
    expect(err.message).toBe('model provider local failed while streaming: The server had an error while processing your request.');
    expect(deltas).toEqual(['Partial ', 'answer']);
  });

  it('a stream that ends before finish_reason and [DONE] is an error, not a cut answer', async () => {
    server.script(server.streamCut('Half of it'));
    const err = await failure(provider.complete(settings(), streaming([])));
    expect(err.message).toBe('model provider local ended its stream before the answer was complete (no finish_reason, no [DONE])');
  });

  it('an event that is not JSON is a malformed response', async () => {
    server.script(() => ({ status: 200, events: [{ data: '{"choices": [' }] }));
    const err = await failure(provider.complete(settings(), streaming([])));
    expect(err.message).toBe('model provider local returned a malformed response: a stream event is not JSON: {"choices": [');
  });

  it('a non-2xx answer to a streaming request reads as the same HTTP error', async () => {
    server.script(server.error(503, 'overloaded'));
    const err = await failure(provider.complete(settings(), streaming([])));
    expect(err.message).toBe('model provider local returned HTTP 503: overloaded');
  });

  it('a server that ignores stream and answers JSON still works (no deltas from the provider)', async () => {
    server.script(server.ignoringStream('plain answer'));
    const deltas: string[] = [];
    const res = await provider.complete(settings(), streaming(deltas));
    expect(res.text).toBe('plain answer');
    expect(deltas).toEqual([]);
  });

  it('settings.stream false sends the plain request even when deltas are wanted', async () => {
    server.script(server.text('whole'));
    const res = await provider.complete(settings({ stream: false }), streaming([]));
    expect(server.requests[0].body.stream).toBeUndefined();
    expect(server.requests[0].body.stream_options).toBeUndefined();
    expect(res.text).toBe('whole');
  });

  it('streams tokens as they arrive: 5 tokens 80 ms apart come in over time, not at the end', async () => {
    server.script(server.tokens(5, 80));
    const seen: Array<[string, number]> = [];
    const started = Date.now();
    const res = await provider.complete(settings(), streaming([], { onTextDelta: (t) => seen.push([t, Date.now() - started]) }));
    expect(res.text).toBe(tokenText(5));
    expect(seen.map(([t]) => t)).toEqual(['tok1', ' tok2', ' tok3', ' tok4', ' tok5']);
    expect(seen[0][1]).toBeLessThan(seen[4][1] - 200);
  });

  it('an abort mid-stream rejects with the run reason and closes the HTTP request', async () => {
    server.script(server.tokens(20, 100));
    const controller = new AbortController();
    const deltas: string[] = [];
    const call = provider.complete(settings(), streaming(deltas, { signal: controller.signal }));
    await waitUntil(() => deltas.length >= 2);
    controller.abort(new Error('aborted by operator'));
    const err = await failure(call);
    expect(err).not.toBeInstanceOf(ModelProviderError);
    expect(err.message).toBe('aborted by operator');
    await waitUntil(() => server.clientAborts === 1);
    expect(deltas.length).toBeLessThan(20);
  });

  it('timeoutMs covers the whole stream', async () => {
    server.script(server.tokens(20, 100));
    const err = await failure(provider.complete(settings({ timeoutMs: 300 }), streaming([])));
    expect(err.message).toBe('model provider local did not answer within 300 ms (models.providers.local.timeoutMs)');
    await waitUntil(() => server.clientAborts === 1);
  });
});
