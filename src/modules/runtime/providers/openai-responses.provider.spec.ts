import { failure, modelRequest, providerSettings } from '../../../../test/support/provider-spec';
import { FakeOpenAiResponsesServer } from '../../../../test/support/fake-openai-responses-server';
import type { ModelProviderSettings } from '../../config/config.types';
import { ModelProviderError, type ModelRequest, type ToolSpec } from '../model-provider.port';
import { OpenAiResponsesProvider } from './openai-responses.provider';

const KEY = 'sk-test-0123456789abcdef';
const STATUS_TOOL: ToolSpec = {
  name: 'session_status',
  description: 'Show a session.',
  parameters: { type: 'object', properties: { sessionKey: { type: 'string' } }, additionalProperties: false },
};
const USAGE = { inputTokens: 13, outputTokens: 6, cachedTokens: 4 };

describe('OpenAiResponsesProvider against a fake /v1/responses', () => {
  const provider = new OpenAiResponsesProvider();
  let server: FakeOpenAiResponsesServer;

  beforeAll(async () => {
    server = await new FakeOpenAiResponsesServer().start();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  const settings = (over: Partial<ModelProviderSettings> = {}): ModelProviderSettings =>
    providerSettings({ name: 'lmstudio', api: 'openai-responses', baseUrl: server.baseUrl, requiresKey: false }, over);
  const request = (over: Partial<ModelRequest> = {}, deltas?: string[]): ModelRequest => modelRequest('local', over, deltas);

  it('posts the documented request (instructions, input, function tools, store: false) and reads the output text and usage', async () => {
    server.script(server.text('hi there'));
    const res = await provider.complete(settings({ apiKey: KEY, stream: false }), request({ tools: [STATUS_TOOL] }));
    expect(res).toEqual({ text: 'hi there', toolCalls: [], usage: USAGE });
    const [sent] = server.requests;
    expect(sent.path).toBe('/v1/responses');
    expect(sent.headers).toMatchObject({ authorization: `Bearer ${KEY}`, 'content-type': 'application/json' });
    expect(sent.body).toEqual({
      model: 'local',
      instructions: 'You are main.',
      input: [{ role: 'user', content: 'hello' }],
      store: false,
      tools: [{ type: 'function', name: 'session_status', description: 'Show a session.', parameters: STATUS_TOOL.parameters }],
      tool_choice: 'auto',
    });
  });

  it('maps a function call both ways: parsed arguments out, function_call + function_call_output items back in', async () => {
    server.script(
      server.toolCall('session_status', { sessionKey: 'agent:main:main' }),
      server.textFromToolOutput((out) => `the tool said ${out}`),
    );
    const first = await provider.complete(settings({ stream: false }), request({ tools: [STATUS_TOOL] }));
    expect(first).toEqual({
      text: '',
      toolCalls: [{ id: 'call_1', name: 'session_status', arguments: { sessionKey: 'agent:main:main' } }],
      usage: USAGE,
    });
    const messages: ModelRequest['messages'] = [
      { role: 'user', text: 'hello' },
      { role: 'assistant', text: first.text, toolCalls: first.toolCalls },
      { role: 'tool', toolCallId: 'call_1', name: 'session_status', text: '{"status":"ok"}' },
    ];
    const second = await provider.complete(settings({ stream: false }), request({ tools: [STATUS_TOOL], messages }));
    expect(server.violations).toEqual([]);
    expect(second.text).toBe('the tool said {"status":"ok"}');
    expect(server.requests[1].body.input).toEqual([
      { role: 'user', content: 'hello' },
      { type: 'function_call', call_id: 'call_1', name: 'session_status', arguments: '{"sessionKey":"agent:main:main"}' },
      { type: 'function_call_output', call_id: 'call_1', output: '{"status":"ok"}' },
    ]);
  });

  it('streams: each output_text delta is reported as it comes, the reply and usage are those of response.completed', async () => {
    server.script(server.text('one two three'), server.toolCall('session_status', { sessionKey: 'x' }));
    const deltas: string[] = [];
    const res = await provider.complete(settings(), request({}, deltas));
    expect(server.requests[0].body.stream).toBe(true);
    expect(deltas).toEqual(['one ', 'two ', 'three']);
    expect(res).toEqual({ text: 'one two three', toolCalls: [], usage: USAGE });
    const called = await provider.complete(settings(), request({ tools: [STATUS_TOOL] }, []));
    expect(called.toolCalls).toEqual([{ id: 'call_2', name: 'session_status', arguments: { sessionKey: 'x' } }]);
  });

  it('a failure after the 200 (response.failed) and a stream cut before response.completed are errors, never a cut reply', async () => {
    server.script(server.streamFailure('half an', 'The server had an error'), server.streamCut('half an answer'));
    const failed = await failure(provider.complete(settings(), request({}, [])));
    expect(failed).toBeInstanceOf(ModelProviderError);
    expect(failed.message).toContain('model provider lmstudio failed while streaming: The server had an error');
    const cut = await failure(provider.complete(settings(), request({}, [])));
    expect(cut.message).toBe('model provider lmstudio ended its stream before the answer was complete (no response.completed)');
  });

  it('an HTTP error names the status and the provider message; a 401 names the key setting and never the key', async () => {
    const guarded = await new FakeOpenAiResponsesServer({ apiKey: 'sk-the-right-one' }).start();
    try {
      const err = await failure(provider.complete(settings({ name: 'openai', baseUrl: guarded.baseUrl, apiKey: KEY }), request()));
      expect(err).toBeInstanceOf(ModelProviderError);
      expect(err.message).toContain('model provider openai returned HTTP 401: Incorrect API key provided.');
      expect(err.message).not.toContain(KEY);
    } finally {
      await guarded.close();
    }
    server.script(server.error(500, 'overloaded'));
    expect((await failure(provider.complete(settings({ stream: false }), request()))).message).toContain('returned HTTP 500: overloaded');
  });

  it('refuses an answer that is not a response object with output, naming what is missing', async () => {
    server.script(() => ({ status: 200, json: { id: 'resp_1', object: 'response', status: 'completed' } }));
    const err = await failure(provider.complete(settings({ stream: false }), request()));
    expect(err.message).toContain('no output array');
  });
});
