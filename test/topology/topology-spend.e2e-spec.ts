import request from 'supertest';
import { a2aRpc, userMessage } from '../support/a2a-rpc';
import { agentBrain } from '../support/agent-brain';
import type { RecordedRequest } from '../support/fake-model-server';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/**
 * Spend on the topology's edges (docs/topology.md#spend), with real ports and a scripted OpenAI-compatible model that
 * reports 11 prompt and 7 completion tokens a call, priced at 2 and 10 per million: the A2A peer hermes asks support,
 * whose model sessions_sends expert. Support's calls are hermes's spend on its a2a-in edge, expert's are support's on
 * the agent-to-agent edge; nothing else carries spend.
 */
const HERMES = 'hermes-spend-token-0123456789abcdef';
const VIEWER = 'topology-spend-viewer-0123456789';
const IN = 11;
const OUT = 7;
const callCost = (IN * 2 + OUT * 10) / 1_000_000;

const config = (modelUrl: string) => `{
  gateway: { admin: { tokens: [{ name: "v", token: "${VIEWER}", role: "viewer" }] } },
  models: { providers: { brain: { api: "openai-chat", baseUrl: "${modelUrl}", models: [{ id: "m", cost: { input: 2, output: 10 } }] } } },
  agents: { list: [
    { id: "main", default: true, model: "brain/m" },
    { id: "support", model: "brain/m" },
    { id: "expert", model: "brain/m" },
  ] },
  bindings: [{ agentId: "support", match: { channel: "a2a", peer: { kind: "direct", id: "hermes" } } }],
  tools: { agentToAgent: { enabled: true, allow: ["*"] }, sessions: { visibility: "all" } },
  session: { agentToAgent: { maxPingPongTurns: 0 } },
  channels: { a2a: { enabled: true, rateLimitPerMinute: 0, exposeAgents: ["support"], peers: { hermes: { token: "${HERMES}" } } } },
}`;

interface Edge {
  id: string;
  spend?: { inputTokens: number; outputTokens: number; cost: number | null; calls: number };
}

/** The model calls made for an agent, read from its system prompt as the fake model received it. */
const callsOf = (model: FakeOpenAiServer, agentId: string) =>
  model.requests.filter((req: RecordedRequest) =>
    (req.body.messages as Array<{ role: string; content: string | null }>).some(
      (m) => m.role === 'system' && (m.content ?? '').includes(`agent id "${agentId}"`),
    ),
  ).length;

describe('spend on the topology edges (e2e)', () => {
  let model: FakeOpenAiServer;
  let gw: TestGateway;

  beforeAll(async () => {
    model = await new FakeOpenAiServer().start();
    model.always(
      agentBrain(model, ({ agentId, step, toolResult }) => {
        if (agentId === 'support') {
          return toolResult
            ? { text: `expert says: ${String(toolResult.reply ?? toolResult.status)}` }
            : { tool: 'sessions_send', args: { sessionKey: 'agent:expert:main', message: 'is the deploy done?', timeoutSeconds: 30 } };
        }
        return step === 'announce' ? { text: 'ANNOUNCE_SKIP' } : { text: 'deploy is done' };
      }),
    );
    gw = await startTestGateway(config(model.baseUrl));
  });
  afterAll(async () => {
    await gw?.stop();
    await model?.close();
  });

  it('puts the exact tokens and cost of each way the work came on its edge', async () => {
    const answer = await a2aRpc(gw.url, HERMES, 'SendMessage', {
      ...userMessage('ask the expert', 'ctx-spend'),
      configuration: { returnImmediately: false },
    });
    expect(answer.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const supportCalls = callsOf(model, 'support');
    const expertCalls = callsOf(model, 'expert');
    expect(supportCalls).toBe(2); // the sessions_send call, then the answer
    expect(expertCalls).toBeGreaterThanOrEqual(1);

    const res = await request(gw.url).get('/admin/topology?window=15m').set('Authorization', `Bearer ${VIEWER}`).expect(200);
    const spent = Object.fromEntries((res.body.edges as Edge[]).filter((e) => e.spend).map((e) => [e.id, e.spend]));
    const sums = (calls: number) => ({ inputTokens: calls * IN, outputTokens: calls * OUT, calls });
    expect(Object.keys(spent).sort()).toEqual(['a2a-in:a2a-in:hermes->agent:support', 'agent-to-agent:agent:support->agent:expert']);
    expect(spent['a2a-in:a2a-in:hermes->agent:support']).toMatchObject(sums(supportCalls));
    expect(spent['a2a-in:a2a-in:hermes->agent:support']!.cost).toBeCloseTo(supportCalls * callCost, 12);
    expect(spent['agent-to-agent:agent:support->agent:expert']).toMatchObject(sums(expertCalls));
    expect(spent['agent-to-agent:agent:support->agent:expert']!.cost).toBeCloseTo(expertCalls * callCost, 12);
    expect(res.body.traffic.spend).toEqual([
      { channel: 'a2a', caller: 'hermes', agentId: 'support', ...sums(supportCalls), cost: expect.any(Number) },
      {
        channel: 'agent',
        caller: expect.stringMatching(/^agent:support:/),
        agentId: 'expert',
        ...sums(expertCalls),
        cost: expect.any(Number),
      },
    ]);

    const svg = await request(gw.url)
      .get('/admin/topology.svg?window=15m')
      .set('Authorization', `Bearer ${VIEWER}`)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
      })
      .expect(200);
    expect(svg.body).toContain(`${supportCalls * (IN + OUT)} tokens · cost ${Number((supportCalls * callCost).toPrecision(4))}`);
    expect(svg.body).toContain(`${expertCalls * (IN + OUT)} tokens`);
  });
});
