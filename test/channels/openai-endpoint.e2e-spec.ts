import OpenAI from 'openai';
import request from 'supertest';
import { ChannelRegistry } from '../../src/modules/channels/channel-registry';
import { SESSION_STORE, SessionStore } from '../../src/modules/sessions/session-store.port';
import { FakeOpenAiServer, tokenText } from '../support/fake-openai-server';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/**
 * The OpenAI-compatible endpoint with the official `openai` npm client against a real gateway: the echo agent, and
 * an agent whose model is a fake OpenAI-compatible upstream that streams. See docs/openai-endpoint.md.
 */
const ALL_KEY = 'sk-clawgate-all-0123456789abcdef';
const DESK_KEY = 'sk-clawgate-desk-0123456789abcdef';
const EXP_KEY = 'sk-clawgate-exp-0123456789abcdef';

const config = (upstream: string) => `{
  models: { providers: { upstream: { api: "openai-chat", baseUrl: "${upstream}" } } },
  agents: { list: [
    { id: "main", default: true },
    { id: "support" },
    { id: "expert" },
    { id: "gpt", model: "upstream/gpt-test" },
  ] },
  gateway: { http: { endpoints: { chatCompletions: {
    enabled: true,
    rateLimitPerMinute: 1000,
    keys: [
      { name: "all", token: "\${ALL_KEY}", agents: ["*"] },
      { name: "desk", token: "\${DESK_KEY}", agents: ["support", "gpt"] },
      { name: "exp", token: "${EXP_KEY}", agents: ["exp*"] },
    ],
  } } } },
}`;

describe('OpenAI-compatible endpoint with the official openai client (e2e)', () => {
  let gw: TestGateway;
  let upstream: FakeOpenAiServer;
  let store: SessionStore;
  const client = (apiKey: string, options: Partial<ConstructorParameters<typeof OpenAI>[0]> = {}) =>
    new OpenAI({ apiKey, baseURL: `${gw.url}/v1`, maxRetries: 0, ...options });

  beforeAll(async () => {
    upstream = await new FakeOpenAiServer().start();
    gw = await startTestGateway(config(upstream.baseUrl), { env: { ALL_KEY, DESK_KEY } });
    store = gw.app.get(SESSION_STORE);
  });
  afterAll(async () => {
    await gw?.stop();
    await upstream?.close();
  });
  beforeEach(() => upstream.reset());

  it('non-stream with the echo agent: a chat.completion, the session of `user`, both transcript lines', async () => {
    const { data, response } = await client(DESK_KEY)
      .chat.completions.create({
        model: 'agent:support',
        messages: [
          { role: 'system', content: 'ignored: the agent has its own prompt' },
          { role: 'user', content: 'hello over openai' },
        ],
        user: 'alice',
      })
      .withResponse();
    expect(data).toMatchObject({
      id: expect.stringMatching(/^chatcmpl-/),
      object: 'chat.completion',
      model: 'agent:support',
      choices: [{ index: 0, message: { role: 'assistant', content: '[support] hello over openai' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    });
    const sessionKey = 'agent:support:openai:direct:alice';
    expect(response.headers.get('x-openclaw-session-key')).toBe(sessionKey);
    const { lines } = await store.history(sessionKey);
    expect(lines.map((l) => [l.role, l.text])).toEqual([
      ['user', 'hello over openai'],
      ['assistant', '[support] hello over openai'],
    ]);
    expect((await store.get(sessionKey))?.deliveryContext).toEqual({ channel: 'openai', accountId: 'desk', to: 'alice' });
  });

  it('stream with the echo agent: role chunk, word chunks that make the reply, usage chunk, [DONE]', async () => {
    const stream = await client(ALL_KEY).chat.completions.create({
      model: 'agent:main',
      messages: [{ role: 'user', content: 'stream me over openai' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);

    expect(chunks[0].choices[0].delta).toMatchObject({ role: 'assistant', content: '' });
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
    expect(text).toBe('[main] stream me over openai');
    expect(chunks.filter((c) => c.choices[0]?.delta?.content).length).toBe(5);
    expect(chunks.at(-2)?.choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } });
  });

  it('non-stream with a fake upstream model: its answer and its usage', async () => {
    upstream.script(upstream.text('The upstream model answers.'));
    const completion = await client(DESK_KEY).chat.completions.create({
      model: 'agent:gpt',
      messages: [{ role: 'user', content: 'ask upstream' }],
    });
    expect(completion.choices[0].message.content).toBe('The upstream model answers.');
    expect(completion.usage).toEqual({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
    // A caller that waits for the whole answer keeps the plain request upstream.
    expect(upstream.requests[0].body.stream).toBeUndefined();
  });

  it('stream with a fake upstream that streams: tokens reach the client while the upstream writes them', async () => {
    upstream.script(upstream.tokens(5, 120));
    const stream = await client(DESK_KEY).chat.completions.create({
      model: 'agent:gpt',
      messages: [{ role: 'user', content: 'count slowly' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const arrivals: Array<[string, number]> = [];
    const started = Date.now();
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      const content = chunk.choices[0]?.delta?.content;
      if (content) arrivals.push([content, Date.now() - started]);
      if (chunk.usage) usage = chunk.usage;
    }
    expect(upstream.requests[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(arrivals.map(([t]) => t)).toEqual(['tok1', ' tok2', ' tok3', ' tok4', ' tok5']);
    expect(arrivals.map(([t]) => t).join('')).toBe(tokenText(5));
    expect(arrivals[4][1] - arrivals[0][1]).toBeGreaterThanOrEqual(350);
    expect(usage).toEqual({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
  });

  it('a tool round streams its text too, then a blank line, then the answer; the transcript keeps the answer', async () => {
    upstream.script(upstream.toolCall('session_status', {}, 'Let me check.'), upstream.textAfterToolResult('All good.'));
    const { data: stream, response } = await client(DESK_KEY)
      .chat.completions.create({ model: 'agent:gpt', messages: [{ role: 'user', content: 'status?' }], stream: true })
      .withResponse();
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(upstream.violations).toEqual([]);
    expect(text).toBe('Let me check.\n\nAll good.');
    const { lines } = await store.history(response.headers.get('x-openclaw-session-key')!);
    expect(lines.at(-1)).toMatchObject({ role: 'assistant', text: 'All good.' });
  });

  it('a key limited to support and gpt gets 403 for agent:expert, in OpenAI error shape', async () => {
    const err = await client(DESK_KEY)
      .chat.completions.create({ model: 'agent:expert', messages: [{ role: 'user', content: 'let me in' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.PermissionDeniedError);
    const denied = err as InstanceType<typeof OpenAI.PermissionDeniedError>;
    expect(denied.status).toBe(403);
    expect(denied.error).toEqual({
      message: 'this key may not use the model `agent:expert`',
      type: 'invalid_request_error',
      param: 'model',
      code: 'model_not_allowed',
    });
    // Nothing ran: expert has no session of this request.
    expect(await store.list({ agentId: 'expert' })).toEqual([]);
  });

  it('GET /v1/models lists the agents each key may use', async () => {
    const ids = async (key: string) => (await client(key).models.list()).data.map((m) => m.id);
    expect(await ids(DESK_KEY)).toEqual(['agent:support', 'agent:gpt']);
    expect(await ids(EXP_KEY)).toEqual(['agent:expert']);
    expect(await ids(ALL_KEY)).toEqual(['agent:main', 'agent:support', 'agent:expert', 'agent:gpt']);
    const one = await client(EXP_KEY).models.retrieve('agent:expert');
    expect(one).toMatchObject({ id: 'agent:expert', object: 'model', owned_by: 'clawgate' });
    await expect(client(EXP_KEY).models.retrieve('agent:support')).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('x-openclaw-session-key continues a session; without it or a user every request is a new session', async () => {
    const key = 'agent:support:openai:direct:ticket-42';
    const desk = client(DESK_KEY, { defaultHeaders: { 'x-openclaw-session-key': key } });
    await desk.chat.completions.create({ model: 'agent:support', messages: [{ role: 'user', content: 'first' }] });
    await desk.chat.completions.create({ model: 'agent:support', messages: [{ role: 'user', content: 'second' }] });
    expect((await store.history(key)).lines.map((l) => l.text)).toEqual(['first', '[support] first', 'second', '[support] second']);

    const anonymous = async () =>
      (
        await client(DESK_KEY)
          .chat.completions.create({ model: 'agent:support', messages: [{ role: 'user', content: 'who am i' }] })
          .withResponse()
      ).response.headers.get('x-openclaw-session-key');
    const [a, b] = [await anonymous(), await anonymous()];
    expect(a).toMatch(/^agent:support:openai:direct:request-[0-9a-f-]{36}$/);
    expect(b).not.toBe(a);
  });

  it('the agent may also be named by x-openclaw-agent-id when the client sends a model name of its own', async () => {
    const completion = await client(DESK_KEY, { defaultHeaders: { 'x-openclaw-agent-id': 'support' } }).chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'by header' }],
    });
    expect(completion).toMatchObject({ model: 'agent:support', choices: [{ message: { content: '[support] by header' } }] });
  });

  it('a run that fails is an error the client does not retry; mid-stream it is an error event', async () => {
    upstream.script(upstream.error(500, 'upstream is down'));
    const err = await client(DESK_KEY, { maxRetries: 2 })
      .chat.completions.create({ model: 'agent:gpt', messages: [{ role: 'user', content: 'fail please' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((err as InstanceType<typeof OpenAI.APIError>).message).toContain('model provider upstream returned HTTP 500: upstream is down');
    expect(upstream.requests).toHaveLength(1); // x-should-retry: false — the message reached the agent once

    upstream.script(upstream.streamError('Half', 'upstream broke'));
    const stream = await client(DESK_KEY).chat.completions.create({
      model: 'agent:gpt',
      messages: [{ role: 'user', content: 'break while streaming' }],
      stream: true,
    });
    const received: string[] = [];
    const streamErr = await (async () => {
      for await (const chunk of stream) received.push(chunk.choices[0]?.delta?.content ?? '');
    })().catch((e: unknown) => e);
    expect(received.join('')).toBe('Half');
    expect(streamErr).toBeInstanceOf(OpenAI.APIError);
    expect((streamErr as Error).message).toContain('upstream broke');
  });

  it('a wrong key is an AuthenticationError; the tokens are redacted in the admin config', async () => {
    await expect(client('sk-not-a-key-0000000000000000').models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    const cfg = await request(gw.url).get('/admin/config').expect(200);
    for (const token of [ALL_KEY, DESK_KEY, EXP_KEY]) expect(cfg.text).not.toContain(token);
    // A `${VAR}` is shown as written; a literal token is redacted.
    expect(cfg.body.document.gateway.http.endpoints.chatCompletions.keys.map((k: { token: string }) => k.token)).toEqual([
      '${ALL_KEY}',
      '${DESK_KEY}',
      '[redacted]',
    ]);
  });

  it('a delivery into an openai session (an announce) is kept in its transcript', async () => {
    const sessionKey = 'agent:support:openai:direct:bob';
    await client(DESK_KEY).chat.completions.create({ model: 'agent:support', messages: [{ role: 'user', content: 'hi' }], user: 'bob' });
    const result = await gw.app
      .get(ChannelRegistry)
      .get('openai')!
      .send({ sessionKey, to: 'bob', text: 'Your ticket was closed.', accountId: 'desk' });
    expect(result).toEqual({ status: 'stored' });
    expect((await store.history(sessionKey)).lines.at(-1)).toMatchObject({
      role: 'assistant',
      text: 'Your ticket was closed.',
      meta: { delivery: 'openai', to: 'bob' },
    });
  });
});
