import request from 'supertest';
import { verifyWebhookSignature } from '../../src/bundled-plugins/http/webhook-signature';
import { SESSION_STORE, SessionStore, TranscriptLine } from '../../src/modules/sessions/session-store.port';
import { agentBrain, BrainInput, BrainAnswer } from '../support/agent-brain';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { startWebhook, WebhookReceiver } from '../support/webhook-receiver';

const DESK_TOKEN = 'desk-token-for-the-scenario';
const EXPERT_SESSION = 'agent:expert:http:group:tech-group';

const config = (modelUrl: string, webhookUrl: string, allow: string) => `{
  models: { providers: { fake: { api: "openai-chat", baseUrl: "${modelUrl}" } } },
  agents: { list: [
    { id: "support", name: "Support desk", model: "fake/gpt" },
    { id: "expert", name: "Technical expert", model: "fake/gpt" },
  ] },
  bindings: [
    { agentId: "support", match: { channel: "http", accountId: "desk" } },
    { agentId: "expert", match: { channel: "http", accountId: "desk", peer: { kind: "group", id: "tech-group" } } },
  ],
  tools: { agentToAgent: { enabled: true, allow: ${allow} }, sessions: { visibility: "all" } },
  session: { agentToAgent: { maxPingPongTurns: 3 } },
  channels: { http: { enabled: true, accounts: { desk: { token: "\${DESK_TOKEN}", webhookUrl: "${webhookUrl}" } } } },
}`;

/** The two agents of the seeds' scenario 9.1, scripted. */
function scenarioBrain(expertSkipsAtTurn?: number) {
  return ({ agentId, step, toolResult, system }: BrainInput): BrainAnswer => {
    const turn = Number(/turn (\d+) of/.exec(system)?.[1] ?? 0);
    if (agentId === 'support') {
      if (toolResult) return { text: `Support: ${String(toolResult.reply ?? toolResult.error ?? toolResult.status)}` };
      if (step === 'ping-pong') return { text: `support follow-up ${turn}` };
      return {
        tool: 'sessions_send',
        args: { sessionKey: EXPERT_SESSION, message: 'Customer build fails with E42. Cause?', timeoutSeconds: 30 },
      };
    }
    if (step === 'round-one') return { text: 'E42 means a stale cache; clear it.' };
    if (step === 'ping-pong') return { text: turn === expertSkipsAtTurn ? 'REPLY_SKIP' : `expert detail ${turn}` };
    if (step === 'announce') return { text: 'Announcement: E42 is a stale cache; support told the customer to clear it.' };
    return { text: 'expert here' };
  };
}

describe("seeds' scenario 9.1: support asks expert, ping-pong, announce to the http webhook (e2e)", () => {
  let model: FakeOpenAiServer;
  let hook: WebhookReceiver;
  let gw: TestGateway;
  let store: SessionStore;

  const say = (peer: Record<string, string>, text: string) =>
    request(gw.url).post('/channels/http/messages').set('Authorization', `Bearer ${DESK_TOKEN}`).send({ peer, text });
  const a2aSteps = (lines: TranscriptLine[]) =>
    lines
      .filter((l) => l.meta?.sessionsSend)
      .map(
        (l) =>
          `${l.role}:${(l.meta?.sessionsSend as { step: string; turn?: number }).step}${(l.meta?.sessionsSend as { turn?: number }).turn ?? ''}`,
      );

  beforeEach(async () => {
    model = await new FakeOpenAiServer().start();
    hook = await startWebhook();
  });
  afterEach(async () => {
    await gw.stop();
    await model.close();
    await hook.close();
  });

  it('runs the whole exchange and posts a signed announcement; every step is in both transcripts with provenance', async () => {
    model.always(agentBrain(model, scenarioBrain()));
    gw = await startTestGateway(config(model.baseUrl, hook.url, '["support", "expert"]'), { env: { DESK_TOKEN } });
    store = gw.app.get(SESSION_STORE);

    await say({ kind: 'group', id: 'tech-group' }, 'hello team').expect(200);
    const res = await say({ kind: 'direct', id: 'customer-1' }, 'my build fails with E42').expect(200);
    expect(res.body).toMatchObject({
      agentId: 'support',
      sessionKey: 'agent:support:main',
      reply: 'Support: E42 means a stale cache; clear it.',
    });

    await waitFor(
      'the delivery outcome in the expert transcript',
      async () => (await store.history(EXPERT_SESSION)).lines.at(-1)?.meta?.delivery,
      10000,
    );
    expect(hook.received).toHaveLength(1);
    const delivered = hook.received[0];
    expect(JSON.parse(delivered.body)).toMatchObject({
      sessionKey: EXPERT_SESSION,
      to: 'tech-group',
      text: 'Announcement: E42 is a stale cache; support told the customer to clear it.',
    });
    expect(verifyWebhookSignature(delivered.body, delivered.signature, DESK_TOKEN)).toBe(true);

    const expert = (await store.history(EXPERT_SESSION)).lines;
    // maxPingPongTurns 3, requester first: support (1), expert (2), support (3)
    expect(a2aSteps(expert)).toEqual([
      'user:round-one',
      'assistant:round-one',
      'user:ping-pong2',
      'assistant:ping-pong2',
      'user:announce',
      'assistant:announce',
      'system:delivery',
    ]);
    expect(expert.find((l) => (l.meta?.sessionsSend as { step: string } | undefined)?.step === 'round-one')?.provenance).toMatchObject({
      kind: 'inter_session',
      sourceSessionKey: 'agent:support:main',
      sourceChannel: 'http',
      sourceTool: 'sessions_send',
    });
    expect(expert.at(-1)?.meta?.delivery).toEqual({ status: 'delivered', detail: 'webhook answered HTTP 204' });
    const support = (await store.history('agent:support:main', { includeTools: true })).lines;
    // The ping-pong runs on the nested lane while support's own turn finishes, so its lines may interleave
    // with that turn's last line; the turn itself keeps its order.
    const ownTurn = support.filter((l) => l.runId === support[0].runId);
    expect(ownTurn.map((l) => l.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(support[1].toolCalls).toEqual([expect.objectContaining({ name: 'sessions_send' })]);
    expect(a2aSteps(support)).toEqual(['user:ping-pong1', 'assistant:ping-pong1', 'user:ping-pong3', 'assistant:ping-pong3']);
    expect(support.find((l) => l.text === 'expert detail 2')?.provenance).toMatchObject({ sourceSessionKey: EXPERT_SESSION });
  });

  it('stops the ping-pong at REPLY_SKIP', async () => {
    model.always(agentBrain(model, scenarioBrain(2)));
    gw = await startTestGateway(config(model.baseUrl, hook.url, '["support", "expert"]'), { env: { DESK_TOKEN } });
    store = gw.app.get(SESSION_STORE);
    await say({ kind: 'group', id: 'tech-group' }, 'hello team').expect(200);
    await say({ kind: 'direct', id: 'customer-1' }, 'my build fails with E42').expect(200);
    await waitFor(
      'the delivery outcome in the expert transcript',
      async () => (await store.history(EXPERT_SESSION)).lines.at(-1)?.meta?.delivery,
      10000,
    );
    const support = (await store.history('agent:support:main')).lines;
    expect(a2aSteps(support)).toEqual(['user:ping-pong1', 'assistant:ping-pong1']);
    const expert = (await store.history(EXPERT_SESSION)).lines;
    expect(a2aSteps(expert)).toEqual([
      'user:round-one',
      'assistant:round-one',
      'user:ping-pong2',
      'assistant:ping-pong2',
      'user:announce',
      'assistant:announce',
      'system:delivery',
    ]);
  });

  it('with allow [support] only, the tool result is forbidden and the expert transcript is untouched', async () => {
    model.always(agentBrain(model, scenarioBrain()));
    gw = await startTestGateway(config(model.baseUrl, hook.url, '["support"]'), { env: { DESK_TOKEN } });
    store = gw.app.get(SESSION_STORE);
    await say({ kind: 'group', id: 'tech-group' }, 'hello team').expect(200);
    const before = (await store.history(EXPERT_SESSION)).lines.length;
    const res = await say({ kind: 'direct', id: 'customer-1' }, 'my build fails with E42').expect(200);
    expect(res.body.reply).toBe('Support: Agent-to-agent messaging denied by tools.agentToAgent.allow.');
    const tool = (await store.history('agent:support:main', { includeTools: true })).lines.find((l) => l.role === 'tool');
    expect(JSON.parse(tool?.text ?? '{}')).toEqual({
      status: 'forbidden',
      error: 'Agent-to-agent messaging denied by tools.agentToAgent.allow.',
    });
    await new Promise((r) => setTimeout(r, 300));
    expect((await store.history(EXPERT_SESSION)).lines.length).toBe(before);
    expect(hook.received).toHaveLength(0);
  });
});
