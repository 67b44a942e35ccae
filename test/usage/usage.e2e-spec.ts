import OpenAI from 'openai';
import request from 'supertest';
import { a2aRpc, userMessage } from '../support/a2a-rpc';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/**
 * Usage, priced (docs/usage.md): a scripted OpenAI-compatible model reports usage — plain, cached and streamed — for
 * runs started by an A2A peer and over the OpenAI-compatible endpoint; GET /admin/usage sums exactly what it reported,
 * priced from the models' cost entries, grouped every way, and the token and cost series count the same.
 */
const PEER_TOKEN = 'hermes-token-usage-000001';
const KEY = 'sk-clawgate-usage-0123456789abcdef';

const config = (upstream: string) => `{
  models: { providers: { upstream: {
    api: "openai-chat", baseUrl: "${upstream}",
    models: [
      { id: "gpt-priced", cost: { input: 2, output: 10, cacheRead: 0.5 } },
      { id: "gpt-free" },
    ],
  } } },
  agents: { list: [
    { id: "main", default: true, model: "upstream/gpt-priced" },
    { id: "free", model: "upstream/gpt-free" },
  ] },
  channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { hermes: { token: "${PEER_TOKEN}" } } } },
  gateway: { http: { endpoints: { chatCompletions: {
    enabled: true, rateLimitPerMinute: 0,
    keys: [{ name: "desk", token: "${KEY}", agents: ["*"] }],
  } } } },
}`;

describe('usage, priced (e2e)', () => {
  let gw: TestGateway;
  let upstream: FakeOpenAiServer;
  const usage = (query: string) => request(gw.url).get(`/admin/usage?${query}`);

  beforeAll(async () => {
    upstream = await new FakeOpenAiServer().start();
    gw = await startTestGateway(config(upstream.baseUrl));
    const client = new OpenAI({ apiKey: KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 });

    // An A2A peer's task: 100 prompt tokens, 40 of them from the cache, 20 out.
    upstream.script(
      upstream.text('from the model', { prompt_tokens: 100, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 40 } }),
    );
    const sent = await a2aRpc(gw.url, PEER_TOKEN, 'SendMessage', { ...userMessage('hello'), configuration: { returnImmediately: false } });
    expect(sent.result?.task?.status?.state).toBe('TASK_STATE_COMPLETED');

    // A streamed completion over the OpenAI endpoint: the usage comes in the stream's last chunk.
    upstream.script(upstream.text('streamed words here', { prompt_tokens: 50, completion_tokens: 10 }));
    const stream = await client.chat.completions.create({
      model: 'agent:main',
      messages: [{ role: 'user', content: 'stream' }],
      stream: true,
    });
    for await (const chunk of stream) void chunk;
    expect(upstream.requests.at(-1)?.body.stream_options).toEqual({ include_usage: true });

    // An unpriced model: tokens count, cost does not.
    upstream.script(upstream.text('free answer', { prompt_tokens: 30, completion_tokens: 5 }));
    await client.chat.completions.create({ model: 'agent:free', messages: [{ role: 'user', content: 'free' }] });
  });
  afterAll(async () => {
    await gw?.stop();
    await upstream?.close();
  });

  it('sums per agent what the model reported, priced per million tokens (cached input at cacheRead)', async () => {
    const { body } = await usage('groupBy=agent').expect(200);
    expect(body.groupBy).toBe('agent');
    expect(body.items).toEqual([
      // (60 × 2 + 40 × 0.5 + 20 × 10) / 1e6 + (50 × 2 + 10 × 10) / 1e6
      { group: 'free', calls: 1, inputTokens: 30, outputTokens: 5, cachedTokens: 0, cost: null, unpricedCalls: 1 },
      {
        group: 'main',
        calls: 2,
        inputTokens: 150,
        outputTokens: 30,
        cachedTokens: 40,
        cost: expect.closeTo(0.00054, 12),
        unpricedCalls: 0,
      },
    ]);
    expect(body.nextCursor).toBeUndefined();
  });

  it('groups by A2A peer, OpenAI key, model and session', async () => {
    expect((await usage('groupBy=peer').expect(200)).body.items).toEqual([
      {
        group: 'hermes',
        calls: 1,
        inputTokens: 100,
        outputTokens: 20,
        cachedTokens: 40,
        cost: expect.closeTo(0.00034, 12),
        unpricedCalls: 0,
      },
    ]);
    expect((await usage('groupBy=key').expect(200)).body.items).toMatchObject([
      { group: 'openai:desk', calls: 2, inputTokens: 80, outputTokens: 15 },
    ]);
    expect((await usage('groupBy=model').expect(200)).body.items.map((g: { group: string; calls: number }) => [g.group, g.calls])).toEqual([
      ['upstream/gpt-free', 1],
      ['upstream/gpt-priced', 2],
    ]);
    const sessions = (await usage('groupBy=session').expect(200)).body.items as Array<{ group: string; inputTokens: number }>;
    expect(sessions.reduce((sum, g) => sum + g.inputTokens, 0)).toBe(180);
    expect(sessions.every((g) => g.group.startsWith('agent:'))).toBe(true);
  });

  it('buckets per hour, pages with a cursor, and leaves out calls outside the window', async () => {
    const hour = expect.stringMatching(/T\d\d:00:00\.000Z$/);
    const first = (await usage('groupBy=agent&bucket=hour&limit=1').expect(200)).body;
    expect(first.items).toEqual([expect.objectContaining({ group: 'free', bucket: hour })]);
    const second = (await usage(`groupBy=agent&bucket=hour&limit=1&cursor=${first.nextCursor}`).expect(200)).body;
    expect(second.items).toEqual([expect.objectContaining({ group: 'main', bucket: hour, calls: 2 })]);
    expect(second.nextCursor).toBeUndefined();
    expect((await usage('from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z').expect(200)).body.items).toEqual([]);
  });

  it('counts the same tokens and cost in the metrics', async () => {
    const text = (await request(gw.url).get('/metrics').expect(200)).text;
    const value = (series: string) => Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);
    expect(value('clawgate_model_tokens_total{agent="main",model="upstream/gpt-priced",kind="input"}')).toBe(150);
    expect(value('clawgate_model_tokens_total{agent="main",model="upstream/gpt-priced",kind="cached"}')).toBe(40);
    expect(value('clawgate_model_tokens_total{agent="free",model="upstream/gpt-free",kind="output"}')).toBe(5);
    expect(value('clawgate_model_cost_total{agent="main",model="upstream/gpt-priced"}')).toBeCloseTo(0.00054, 12);
  });

  it.each([
    ['groupBy=tenant', 'groupBy must be one of agent, session, peer, key, account, model'],
    ['bucket=week', 'bucket must be one of hour, day'],
    ['from=yesterday', 'from must be an ISO 8601 time'],
    ['limit=0', 'limit must be an integer from 1 to 1000'],
    ['cursor=nope', 'cursor is not a page token'],
    ['from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', 'from must be before to'],
    ['groupBy=agent&groupBy=model', 'groupBy must be given once'],
  ])('refuses %s with a 400 naming the parameter', async (query, detail) => {
    const res = await usage(query).expect(400);
    expect(res.body.detail).toContain(detail);
  });
});
