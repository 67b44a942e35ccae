import { failure, modelRequest, providerSettings } from '../../../../test/support/provider-spec';
import { FakeAnthropicServer } from '../../../../test/support/fake-anthropic-server';
import type { ModelProviderSettings } from '../../config/config.types';
import { ModelProviderError, ModelRequest } from '../model-provider.port';
import { AnthropicMessagesProvider } from './anthropic-messages.provider';
import { INVALID_ARGUMENTS_KEY } from './openai-response';
import { waitUntil } from '../../../../test/support/wait-until';

const KEY = 'sk-ant-test-0123456789';

/** The streaming path of anthropic-messages (`stream: true`), against the fake's exact SSE wire format. */
describe('AnthropicMessagesProvider streaming', () => {
  const provider = new AnthropicMessagesProvider();
  let server: FakeAnthropicServer;

  beforeAll(async () => {
    server = await new FakeAnthropicServer({ apiKey: KEY }).start();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  const settings = (over: Partial<ModelProviderSettings> = {}): ModelProviderSettings =>
    providerSettings({ name: 'anthropic', api: 'anthropic-messages', baseUrl: server.baseUrl, apiKey: KEY, requiresKey: true }, over);
  const streaming = (deltas: string[], over: Partial<ModelRequest> = {}): ModelRequest => modelRequest('claude-test', over, deltas);
  const ev = (type: string, body: Record<string, unknown> = {}) => ({ event: type, data: JSON.stringify({ type, ...body }) });

  it('asks for a stream and reports text deltas in order; usage from message_start and message_delta', async () => {
    server.script(server.text('Hello from Claude.', { input_tokens: 30, output_tokens: 9 }));
    const deltas: string[] = [];
    const res = await provider.complete(settings(), streaming(deltas));
    expect(server.requests[0].body).toMatchObject({ stream: true, model: 'claude-test', max_tokens: 4096 });
    expect(deltas).toEqual(['Hello ', 'from ', 'Claude.']);
    expect(res).toEqual({ text: 'Hello from Claude.', toolCalls: [], usage: { inputTokens: 30, outputTokens: 9 } });
  });

  it('counts the prompt cache in the usage: input is every prompt token, cached the part read from the cache', async () => {
    server.script(
      server.text('cached', { input_tokens: 10, cache_read_input_tokens: 300, cache_creation_input_tokens: 50, output_tokens: 4 }),
    );
    const res = await provider.complete(settings(), streaming([]));
    expect(res.usage).toEqual({ inputTokens: 360, outputTokens: 4, cachedTokens: 300 });
  });

  it('joins text blocks with a newline, as a plain answer does, and streams the newline too', async () => {
    server.script(server.texts('First part.', 'Second part.'), server.texts('First part.', 'Second part.'));
    const deltas: string[] = [];
    const streamed = await provider.complete(settings(), streaming(deltas));
    const plain = await provider.complete(settings(), { ...streaming([]), onTextDelta: undefined });
    expect(streamed.text).toBe(plain.text);
    expect(deltas.join('')).toBe('First part.\nSecond part.');
  });

  it('assembles a tool_use input from input_json_delta fragments; the tool round trip still works', async () => {
    server.script(
      server.toolUse('session_status', { sessionKey: 'agent:main:main' }, 'Checking.'),
      server.textAfterToolResult('All good.'),
    );
    const first: string[] = [];
    const call = await provider.complete(settings(), streaming(first));
    expect(first).toEqual(['Checking.']);
    expect(call.toolCalls).toEqual([{ id: 'toolu_1', name: 'session_status', arguments: { sessionKey: 'agent:main:main' } }]);

    const res = await provider.complete(
      settings(),
      streaming([], {
        messages: [
          { role: 'user', text: 'hello' },
          { role: 'assistant', text: call.text, toolCalls: call.toolCalls },
          { role: 'tool', toolCallId: 'toolu_1', name: 'session_status', text: '{"status":"ok"}' },
        ],
      }),
    );
    expect(server.violations).toEqual([]);
    expect(res.text).toBe('All good.');
  });

  it('a tool input that is not a JSON object goes on under __invalid_json; thinking blocks are skipped', async () => {
    server.script(() => ({
      status: 200,
      events: [
        ev('message_start', { message: { usage: { input_tokens: 3, output_tokens: 1 } } }),
        ev('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '' } }),
        ev('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } }),
        ev('content_block_stop', { index: 0 }),
        ev('content_block_start', { index: 1, content_block: { type: 'tool_use', id: 'toolu_x', name: 'memory_get', input: {} } }),
        ev('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '{"path": ' } }),
        ev('content_block_stop', { index: 1 }),
        ev('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 4 } }),
        ev('message_stop'),
      ],
    }));
    const res = await provider.complete(settings(), streaming([]));
    expect(res).toEqual({
      text: '',
      toolCalls: [{ id: 'toolu_x', name: 'memory_get', arguments: { [INVALID_ARGUMENTS_KEY]: '{"path": ' } }],
      usage: { inputTokens: 3, outputTokens: 4 },
    });
  });

  it('an error event mid-stream fails with its message', async () => {
    server.script(server.streamError('Partial', 'overloaded_error', 'Overloaded'));
    const deltas: string[] = [];
    const err = await failure(provider.complete(settings(), streaming(deltas)));
    expect(err).toBeInstanceOf(ModelProviderError);
    expect(err.message).toBe('model provider anthropic failed while streaming: Overloaded');
    expect(deltas).toEqual(['Partial']);
  });

  it('a stream that ends before message_stop is an error', async () => {
    server.script(server.streamCut('Half'));
    const err = await failure(provider.complete(settings(), streaming([])));
    expect(err.message).toBe('model provider anthropic ended its stream before message_stop');
  });

  it('a delta for a block that never started is a malformed response', async () => {
    server.script(() => ({ status: 200, events: [ev('content_block_delta', { index: 3, delta: { type: 'text_delta', text: 'x' } })] }));
    const err = await failure(provider.complete(settings(), streaming([])));
    expect(err.message).toBe(
      'model provider anthropic returned a malformed response: a content_block_delta for block 3, which was never started',
    );
  });

  it('a 401 to a streaming request names the key setting and never leaks the key', async () => {
    const err = await failure(provider.complete(settings({ apiKey: 'sk-ant-wrong-key-000' }), streaming([])));
    expect(err.message).toContain('model provider anthropic returned HTTP 401: invalid x-api-key');
    expect(err.message).not.toContain('sk-ant-wrong-key-000');
  });

  it('an abort mid-stream rejects with the run reason and closes the HTTP request', async () => {
    server.script(server.tokens(20, 100));
    const controller = new AbortController();
    const deltas: string[] = [];
    const call = provider.complete(settings(), streaming(deltas, { signal: controller.signal }));
    await waitUntil(() => deltas.length >= 2);
    controller.abort(new Error('task canceled'));
    const err = await failure(call);
    expect(err.message).toBe('task canceled');
    await waitUntil(() => server.clientAborts === 1);
  });
});
