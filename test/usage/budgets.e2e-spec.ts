import OpenAI from 'openai';
import request from 'supertest';
import { a2aRpc, userMessage } from '../support/a2a-rpc';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/**
 * Budgets (docs/usage.md#budgets): an agent with a daily cost budget, on a scripted model that reports usage, is
 * stopped at the limit — the model is not called again — with a message naming the budget, its limit, what was used
 * and when it resets: the A2A caller's task FAILED with it, the OpenAI endpoint a 429 with Retry-After.
 */
const PEER_TOKEN = 'hermes-token-budget-000001';
const KEY = 'sk-clawgate-budget-0123456789abcdef';

const config = (upstream: string) => `{
  models: { providers: { upstream: { api: "openai-chat", baseUrl: "${upstream}", models: [{ id: "m", cost: { input: 2, output: 10 } }] } } },
  agents: { list: [{ id: "main", default: true, model: "upstream/m" }] },
  budgets: [{ name: "main-daily", agent: "main", cost: 0.0005, window: "day", softAt: 0.5 }],
  channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { hermes: { token: "${PEER_TOKEN}" } } } },
  gateway: { http: { endpoints: { chatCompletions: { enabled: true, rateLimitPerMinute: 0, keys: [{ name: "desk", token: "${KEY}", agents: ["*"] }] } } } },
}`;

describe('budgets (e2e)', () => {
  let gw: TestGateway;
  let upstream: FakeOpenAiServer;

  beforeAll(async () => {
    upstream = await new FakeOpenAiServer().start();
    upstream.always(upstream.text('an answer', { prompt_tokens: 200, completion_tokens: 30 })); // (400 + 300) / 1e6 = 0.0007
    gw = await startTestGateway(config(upstream.baseUrl));
  });
  afterAll(async () => {
    await gw?.stop();
    await upstream?.close();
  });

  it('lets the call that reaches the limit through, then refuses the next ones without calling the model', async () => {
    const first = await a2aRpc(gw.url, PEER_TOKEN, 'SendMessage', userMessage('first'));
    expect(first.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(upstream.requests).toHaveLength(1);

    const refused = await a2aRpc(gw.url, PEER_TOKEN, 'SendMessage', userMessage('second'));
    expect(refused.result.task.status.state).toBe('TASK_STATE_FAILED');
    const text = refused.result.task.status.message.parts[0].text as string;
    expect(text).toMatch(
      /^budget "main-daily" exhausted: 0\.0005 cost per day for agent main, 0\.0007 used; it resets at \d{4}-\d\d-\d\dT00:00:00\.000Z$/,
    );

    const client = new OpenAI({ apiKey: KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    const err = await client.chat.completions
      .create({ model: 'agent:main', messages: [{ role: 'user', content: 'third' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    const rateLimited = err as InstanceType<typeof OpenAI.RateLimitError>;
    expect(rateLimited.message).toContain('budget "main-daily" exhausted');
    const retryAfter = Number(rateLimited.headers?.get('retry-after'));
    const toMidnight = (Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1) - Date.now()) / 1000;
    expect(retryAfter).toBeGreaterThan(0);
    expect(Math.abs(retryAfter - toMidnight)).toBeLessThan(120);

    expect(upstream.requests).toHaveLength(1);
    const usage = (await request(gw.url).get('/admin/usage?groupBy=agent').expect(200)).body;
    expect(usage.items).toEqual([
      expect.objectContaining({ group: 'main', calls: 1, inputTokens: 200, outputTokens: 30, cost: expect.closeTo(0.0007, 12) }),
    ]);
    const metrics = (await request(gw.url).get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/^clawgate_budget_soft_limit_total\{budget="main-daily"\} 1$/m);
  });

  it('refuses a budgets entry that names two scopes, or a window it does not know, naming the entry', async () => {
    const validate = (budgets: unknown[]) =>
      request(gw.url)
        .post('/admin/config/validate')
        .send({ agents: { list: [{ id: 'main' }] }, budgets })
        .expect(422);
    const twoScopes = JSON.stringify((await validate([{ name: 'x', agent: 'main', peer: 'hermes', tokens: 5, window: 'day' }])).body);
    expect(twoScopes).toContain('budgets[0]');
    expect(twoScopes).toContain('a budget names exactly one of agent, session, peer, key, account (found agent, peer)');
    const badWindow = JSON.stringify((await validate([{ name: 'y', agent: 'main', tokens: 5, window: '2w' }])).body);
    expect(badWindow).toContain('budgets[0].window');
    expect(badWindow).toContain('must be \\"run\\", \\"day\\", \\"month\\" or \\"<n>h\\"');
  });
});
