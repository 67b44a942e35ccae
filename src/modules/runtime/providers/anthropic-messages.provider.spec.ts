import { failure, modelRequest, providerSettings } from '../../../../test/support/provider-spec';
import { FakeAnthropicServer } from '../../../../test/support/fake-anthropic-server';
import type { ModelProviderSettings } from '../../config/config.types';
import { ModelProviderError, ModelRequest, ToolSpec } from '../model-provider.port';
import { AnthropicMessagesProvider, toAnthropicMessages } from './anthropic-messages.provider';

const KEY = 'sk-ant-test-0123456789abcdef';
const STATUS_TOOL: ToolSpec = {
  name: 'session_status',
  description: 'Show a session.',
  parameters: { type: 'object', properties: { sessionKey: { type: 'string' } }, additionalProperties: false },
};

describe('toAnthropicMessages', () => {
  it('puts tool calls in the assistant turn and merges tool results (first) and same-role turns into one user turn', () => {
    expect(
      toAnthropicMessages([
        { role: 'user', text: 'first' },
        { role: 'user', text: 'second' },
        {
          role: 'assistant',
          text: '',
          toolCalls: [
            { id: 't1', name: 'a', arguments: { x: 1 } },
            { id: 't2', name: 'b', arguments: {} },
          ],
        },
        { role: 'tool', toolCallId: 't1', name: 'a', text: 'r1' },
        { role: 'tool', toolCallId: 't2', name: 'b', text: 'r2' },
        { role: 'user', text: 'and now?' },
        { role: 'assistant', text: '' },
        { role: 'assistant', text: 'answer' },
      ]),
    ).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'first' },
          { type: 'text', text: 'second' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 't1', name: 'a', input: { x: 1 } },
          { type: 'tool_use', id: 't2', name: 'b', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'r1' },
          { type: 'tool_result', tool_use_id: 't2', content: 'r2' },
          { type: 'text', text: 'and now?' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'answer' }] },
    ]);
  });
});

describe('AnthropicMessagesProvider against a fake /v1/messages', () => {
  const provider = new AnthropicMessagesProvider();
  let server: FakeAnthropicServer;

  beforeAll(async () => {
    server = await new FakeAnthropicServer().start();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  const settings = (over: Partial<ModelProviderSettings> = {}): ModelProviderSettings =>
    providerSettings(
      {
        name: 'anthropic',
        api: 'anthropic-messages',
        baseUrl: server.baseUrl,
        apiKey: KEY,
        apiKeyEnv: 'ANTHROPIC_API_KEY',
        requiresKey: true,
      },
      over,
    );
  const request = (over: Partial<ModelRequest> = {}): ModelRequest => modelRequest('claude-test', over);

  it('posts the documented request: headers, top-level system, max_tokens, tools as input_schema', async () => {
    server.script(server.text('hi there'));
    const res = await provider.complete(settings({ headers: { 'anthropic-beta': 'tools-2024' } }), request({ tools: [STATUS_TOOL] }));
    expect(res).toEqual({ text: 'hi there', toolCalls: [], usage: { inputTokens: 21, outputTokens: 5 } });

    const [sent] = server.requests;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers).toMatchObject({
      'x-api-key': KEY,
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
      'anthropic-beta': 'tools-2024',
    });
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toEqual({
      model: 'claude-test',
      max_tokens: 4096,
      system: 'You are main.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
      tools: [{ name: 'session_status', description: 'Show a session.', input_schema: STATUS_TOOL.parameters }],
    });
  });

  it('omits tools when there are none and joins several text blocks', async () => {
    server.script(() => ({
      status: 200,
      json: {
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
        usage: {},
      },
    }));
    const res = await provider.complete(settings(), request());
    expect(res.text).toBe('one\ntwo');
    expect(server.requests[0].body).not.toHaveProperty('tools');
  });

  it('maps a tool use both ways: tool_use out, tool_use + tool_result turns back in', async () => {
    server.script(
      server.toolUse('session_status', { sessionKey: 'agent:main:main' }, 'Let me check.'),
      server.textAfterToolResult('all idle'),
    );
    const first = await provider.complete(settings(), request({ tools: [STATUS_TOOL] }));
    expect(first).toEqual({
      text: 'Let me check.',
      toolCalls: [{ id: 'toolu_1', name: 'session_status', arguments: { sessionKey: 'agent:main:main' } }],
      usage: { inputTokens: 21, outputTokens: 5 },
    });

    const second = await provider.complete(
      settings(),
      request({
        tools: [STATUS_TOOL],
        messages: [
          { role: 'user', text: 'hello' },
          { role: 'assistant', text: first.text, toolCalls: first.toolCalls },
          { role: 'tool', toolCallId: 'toolu_1', name: 'session_status', text: '{"status":"ok"}' },
        ],
      }),
    );
    expect(server.violations).toEqual([]);
    expect(second.text).toBe('all idle');
    expect(server.requests[1].body.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'toolu_1', name: 'session_status', input: { sessionKey: 'agent:main:main' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '{"status":"ok"}' }] },
    ]);
  });

  it('401 names the key setting and env var and never leaks the key', async () => {
    const guarded = await new FakeAnthropicServer({ apiKey: 'sk-ant-the-right-one' }).start();
    try {
      const err = await failure(provider.complete(settings({ baseUrl: guarded.baseUrl }), request()));
      expect(err).toBeInstanceOf(ModelProviderError);
      expect(err.message).toBe(
        'model provider anthropic returned HTTP 401: invalid x-api-key — check the key (set ANTHROPIC_API_KEY or models.providers.anthropic.apiKey)',
      );
    } finally {
      await guarded.close();
    }
  });

  it("overloaded / 500 pass the provider's message", async () => {
    server.script(server.error(529, 'Overloaded'), server.error(500, `Internal error near ${KEY}`));
    expect((await failure(provider.complete(settings(), request()))).message).toBe(
      'model provider anthropic returned HTTP 529: Overloaded',
    );
    const err = await failure(provider.complete(settings(), request()));
    expect(err.message).toBe('model provider anthropic returned HTTP 500: Internal error near ***');
  });

  it('an unreachable baseUrl names models.providers.<name>.baseUrl', async () => {
    const gone = await new FakeAnthropicServer().start();
    const url = gone.baseUrl;
    await gone.close();
    const err = await failure(provider.complete(settings({ baseUrl: url }), request()));
    expect(err).toBeInstanceOf(ModelProviderError);
    expect(err.message).toBe(
      `model provider anthropic is unreachable at ${url}/v1/messages (ECONNREFUSED): check models.providers.anthropic.baseUrl`,
    );
  });

  it('times out after settings.timeoutMs and aborts promptly on the run signal', async () => {
    server.script(server.stall(), server.stall());
    const timedOut = await failure(provider.complete(settings({ timeoutMs: 150 }), request()));
    expect(timedOut).toBeInstanceOf(ModelProviderError);
    expect(timedOut.message).toBe('model provider anthropic did not answer within 150 ms (models.providers.anthropic.timeoutMs)');

    const controller = new AbortController();
    const started = Date.now();
    const call = provider.complete(settings(), request({ signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('aborted by operator')), 30);
    const aborted = await failure(call);
    expect(aborted).not.toBeInstanceOf(ModelProviderError);
    expect(aborted.message).toBe('aborted by operator');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('a non-JSON body or a body without content[] is a malformed response', async () => {
    server.script(server.malformed(), () => ({ status: 200, json: { type: 'message' } }));
    expect((await failure(provider.complete(settings(), request()))).message).toBe(
      'model provider anthropic returned a malformed response (not JSON): <html>502 Bad Gateway</html>',
    );
    expect((await failure(provider.complete(settings(), request()))).message).toBe(
      'model provider anthropic returned a malformed response: no content[] array',
    );
  });
});
