import { failure, modelRequest, providerSettings } from '../../../../test/support/provider-spec';
import { FakeOpenAiServer } from '../../../../test/support/fake-openai-server';
import type { ModelProviderSettings } from '../../config/config.types';
import { ModelProviderError, ModelRequest, ToolSpec } from '../model-provider.port';
import { OpenAiChatProvider } from './openai-chat.provider';
import { INVALID_ARGUMENTS_KEY } from './openai-response';
import { waitUntil } from '../../../../test/support/wait-until';

const KEY = 'sk-test-0123456789abcdef';
const STATUS_TOOL: ToolSpec = {
  name: 'session_status',
  description: 'Show a session.',
  parameters: { type: 'object', properties: { sessionKey: { type: 'string' } }, additionalProperties: false },
};

describe('OpenAiChatProvider against a fake /v1/chat/completions', () => {
  const provider = new OpenAiChatProvider();
  let server: FakeOpenAiServer;

  beforeAll(async () => {
    server = await new FakeOpenAiServer().start();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  const settings = (over: Partial<ModelProviderSettings> = {}): ModelProviderSettings =>
    providerSettings({ name: 'local', api: 'openai-chat', baseUrl: server.baseUrl, requiresKey: false }, over);
  const request = (over: Partial<ModelRequest> = {}): ModelRequest => modelRequest('gpt-test', over);

  it('posts the documented request shape with the key, custom headers, system first and tools', async () => {
    server.script(server.text('hi there'));
    const res = await provider.complete(settings({ apiKey: KEY, headers: { 'X-Org': 'acme' } }), request({ tools: [STATUS_TOOL] }));
    expect(res).toEqual({ text: 'hi there', toolCalls: [], usage: { inputTokens: 11, outputTokens: 7 } });

    const [sent] = server.requests;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers).toMatchObject({ authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'x-org': 'acme' });
    expect(sent.body).toEqual({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'You are main.' },
        { role: 'user', content: 'hello' },
      ],
      tools: [
        { type: 'function', function: { name: 'session_status', description: 'Show a session.', parameters: STATUS_TOOL.parameters } },
      ],
      tool_choice: 'auto',
    });
  });

  it('sends no Authorization without a key (Ollama) and no tools field without tools; settings.headers override ours', async () => {
    server.script(server.text('ok'), server.text('ok'));
    await provider.complete(settings({ baseUrl: `${server.baseUrl}/` }), request({ system: '' }));
    expect(server.requests[0].headers.authorization).toBeUndefined();
    expect(server.requests[0].body).toEqual({ model: 'gpt-test', messages: [{ role: 'user', content: 'hello' }] });

    await provider.complete(settings({ apiKey: KEY, headers: { authorization: 'Bearer proxy-token' } }), request());
    expect(server.requests[1].headers.authorization).toBe('Bearer proxy-token');
  });

  it('maps a tool call both ways: parsed arguments out, assistant tool_calls + tool message back in', async () => {
    server.script(server.toolCall('session_status', { sessionKey: 'agent:main:main' }), server.textAfterToolResult('all idle'));
    const first = await provider.complete(settings(), request({ tools: [STATUS_TOOL] }));
    expect(first).toEqual({
      text: '',
      toolCalls: [{ id: 'call_1', name: 'session_status', arguments: { sessionKey: 'agent:main:main' } }],
      usage: { inputTokens: 11, outputTokens: 7 },
    });

    const second = await provider.complete(
      settings(),
      request({
        tools: [STATUS_TOOL],
        messages: [
          { role: 'user', text: 'hello' },
          { role: 'assistant', text: first.text, toolCalls: first.toolCalls },
          { role: 'tool', toolCallId: 'call_1', name: 'session_status', text: '{"status":"ok"}' },
        ],
      }),
    );
    expect(server.violations).toEqual([]);
    expect(second.text).toBe('all idle');
    expect(server.requests[1].body.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'session_status', arguments: '{"sessionKey":"agent:main:main"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"status":"ok"}' },
    ]);
  });

  it('passes unparseable arguments on under __invalid_json and treats empty arguments as {}', async () => {
    server.script(server.toolCall('session_status', '{"sessionKey": '), server.toolCall('session_status', ''));
    const broken = await provider.complete(settings(), request());
    expect(broken.toolCalls[0].arguments).toEqual({ [INVALID_ARGUMENTS_KEY]: '{"sessionKey": ' });
    const empty = await provider.complete(settings(), request());
    expect(empty.toolCalls[0].arguments).toEqual({});
  });

  it('401 names the key setting (and env var) and never leaks the key', async () => {
    const guarded = await new FakeOpenAiServer({ apiKey: 'sk-the-right-one' }).start();
    try {
      const err = await failure(
        provider.complete(settings({ name: 'openai', baseUrl: guarded.baseUrl, apiKey: KEY, apiKeyEnv: 'OPENAI_API_KEY' }), request()),
      );
      expect(err).toBeInstanceOf(ModelProviderError);
      expect(err.message).toContain('model provider openai returned HTTP 401: Incorrect API key provided');
      expect(err.message).toContain('set OPENAI_API_KEY or models.providers.openai.apiKey');
      expect(err.message).not.toContain(KEY);
    } finally {
      await guarded.close();
    }
  });

  it('500 passes the provider message (truncated, secrets scrubbed)', async () => {
    server.script(
      server.error(500, `upstream exploded while using ${KEY} ${'x'.repeat(500)}`),
      // The key straddles the truncation point: no prefix of it may survive the cut.
      server.error(500, `${'y'.repeat(290)}${KEY}`),
    );
    const err = await failure(provider.complete(settings({ apiKey: KEY }), request()));
    expect(err).toBeInstanceOf(ModelProviderError);
    expect(err.message).toMatch(/^model provider local returned HTTP 500: upstream exploded while using \*\*\* x+…$/);
    expect(err.message).not.toContain(KEY);
    expect(err.message.length).toBeLessThan(400);
    const cut = await failure(provider.complete(settings({ apiKey: KEY }), request()));
    expect(cut.message).toMatch(/y{290}\*\*\*$/);
  });

  it('an unreachable baseUrl names models.providers.<name>.baseUrl', async () => {
    const gone = await new FakeOpenAiServer().start();
    const url = gone.baseUrl;
    await gone.close();
    const err = await failure(provider.complete(settings({ baseUrl: url, apiKey: KEY }), request()));
    expect(err).toBeInstanceOf(ModelProviderError);
    expect(err.message).toContain(`model provider local is unreachable at ${url}/chat/completions (ECONNREFUSED)`);
    expect(err.message).toContain('check models.providers.local.baseUrl');
    expect(err.message).not.toContain(KEY);
  });

  it('times out after settings.timeoutMs, naming the setting, and hangs up on the server', async () => {
    server.script(server.stall());
    const started = Date.now();
    const err = await failure(provider.complete(settings({ timeoutMs: 200 }), request()));
    expect(err).toBeInstanceOf(ModelProviderError);
    expect(err.message).toBe('model provider local did not answer within 200 ms (models.providers.local.timeoutMs)');
    expect(Date.now() - started).toBeLessThan(2000);
    await waitUntil(() => server.clientAborts === 1);
  });

  it("rejects promptly with the run's abort reason when the run is aborted mid-call", async () => {
    server.script(server.stall());
    const controller = new AbortController();
    const started = Date.now();
    const call = provider.complete(settings(), request({ signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('aborted by operator')), 50);
    const err = await failure(call);
    expect(err).not.toBeInstanceOf(ModelProviderError);
    expect(err.message).toBe('aborted by operator');
    expect(Date.now() - started).toBeLessThan(1000);
    await waitUntil(() => server.clientAborts === 1);
  });

  it('does not call the server at all when the run is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(provider.complete(settings(), request({ signal: controller.signal }))).rejects.toThrow('gone');
    expect(server.requests).toHaveLength(0);
  });

  it('a body that is not JSON, or JSON without choices, is a malformed response', async () => {
    server.script(server.malformed(), () => ({ status: 200, json: { object: 'chat.completion' } }));
    expect((await failure(provider.complete(settings(), request()))).message).toMatch(
      /^model provider local returned a malformed response \(not JSON\): \{"id": "chatcmpl-1"/,
    );
    expect((await failure(provider.complete(settings(), request()))).message).toBe(
      'model provider local returned a malformed response: no choices[0].message',
    );
  });
});
