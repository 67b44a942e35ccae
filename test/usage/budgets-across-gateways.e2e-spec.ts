import request from 'supertest';
import { ConfigStore } from '../../src/modules/config';
import { AgentRunner } from '../../src/modules/runtime/agent-runner.service';
import { a2aRpc } from '../support/a2a-rpc';
import { fetchWithToken, sdkClient } from '../support/a2a-sdk';
import { agentBrain } from '../support/agent-brain';
import type { FakeReply, RecordedRequest } from '../support/fake-model-server';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

/**
 * Budgets across gateways (docs/usage.md#across-gateways): two real gateways peered over A2A on loopback, one scripted
 * OpenAI-compatible model behind both reporting 18 tokens a call. Agent alice on A has a per-request budget of 60
 * tokens; after her first call she `a2a_send`s to B, and the message carries what her work may still spend (42 tokens).
 * Bob on B works in tool rounds (five calls, 90 tokens, to finish). When B trusts A with budgets
 * (`trustBudget: true`) bob's task stops at the 42 tokens — FAILED, its status message naming alice's budget and
 * carrying an ErrorInfo — although bob's own budget on B is far larger; when it does not, B ignores the metadata and
 * bob finishes.
 */
// The SDK's CommonJS build loads jose (ESM-only) for card signatures, which this suite does not use.
jest.mock('jose', () => ({}));

const A_TO_B = 'token-a-presents-to-b-budget-71c2';
const B_TO_A = 'token-b-presents-to-a-budget-3e9d';
const BOB_TOOL_ROUNDS = 4;

const configA = (modelUrl: string, bUrl: string) => `{
  models: { providers: { brain: { api: "openai-chat", baseUrl: "${modelUrl}" } } },
  agents: { list: [{ id: "alice", model: "brain/m" }] },
  budgets: [{ name: "alice-request", agent: "alice", tokens: 60, window: "run" }],
  channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: {
    b: { token: "${B_TO_A}", url: "${bUrl}", outboundToken: "${A_TO_B}" },
  } } },
}`;

const configB = (modelUrl: string, trustBudget: boolean) => `{
  models: { providers: { brain: { api: "openai-chat", baseUrl: "${modelUrl}" } } },
  agents: { list: [{ id: "bob", model: "brain/m" }] },
  budgets: [
    { name: "bob-daily", agent: "bob", tokens: 100000, window: "day" },
    { name: "partners", peer: "*", tokens: 100000, window: "day" },
  ],
  channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { a: { token: "${A_TO_B}", trustBudget: ${trustBudget} } } } },
}`;

describe('budgets across gateways (e2e)', () => {
  let model: FakeOpenAiServer;
  let a: TestGateway;
  let b: TestGateway;
  /** The a2a_send results alice's model read. */
  const sent: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    model = await new FakeOpenAiServer().start();
    const alice = agentBrain(model, ({ toolResult }) => {
      if (!toolResult) return { tool: 'a2a_send', args: { peer: 'b', text: 'crunch the numbers', wait: true } };
      sent.push(toolResult);
      return { text: `b answered ${String(toolResult.state)}` };
    });
    model.always((req: RecordedRequest): FakeReply => {
      const messages = req.body.messages as Array<{ role: string; content: string | null }>;
      if (!messages[0].content?.includes('agent id "bob"')) return alice(req);
      // Bob needs BOB_TOOL_ROUNDS tool rounds (since the task's message) before he answers.
      const asked = messages.map((m) => m.role).lastIndexOf('user');
      const rounds = messages.slice(asked).filter((m) => m.role === 'tool').length;
      return rounds < BOB_TOOL_ROUNDS ? model.toolCall('session_status', {})(req) : model.text('the numbers are crunched')(req);
    });
    b = await startTestGateway(configB(model.baseUrl, true));
    a = await startTestGateway(configA(model.baseUrl, `${b.url}/a2a/v1`));
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await model?.close();
  });

  const aliceAsks = async () => {
    const runner = a.app.get(AgentRunner);
    const { runId } = runner.startRun({ sessionKey: 'agent:alice:main', message: 'get b to crunch the numbers' });
    const run = await runner.waitForRun(runId, 20_000);
    expect(run.status).toBe('completed');
    return sent.at(-1)!;
  };
  const bobCalls = () => model.requests.filter((r) => (r.body.messages[0].content as string).includes('agent id "bob"')).length;

  it('a trusting peer holds the task to what the origin may still spend: FAILED, naming the budget, with an ErrorInfo', async () => {
    const result = await aliceAsks();
    expect(result).toMatchObject({ status: 'error', state: 'TASK_STATE_FAILED' });
    const error =
      'budget "alice-request" exhausted: 42 tokens for this task, as peer a allowed it, 54 used; it does not reset within this run';
    expect(result.error).toBe(`peer b reported TASK_STATE_FAILED: ${error}`);
    // Three calls (54 tokens), then the fourth was refused before the model was asked.
    expect(bobCalls()).toBe(3);

    const task = (await a2aRpc(b.url, A_TO_B, 'GetTask', { id: result.taskId })).result;
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(task.status.message.parts).toEqual([{ text: error }]);
    expect(task.status.message.metadata).toEqual({
      'clawgate/error': {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'BUDGET_EXHAUSTED',
        domain: 'clawgate',
        metadata: { budget: 'alice-request' },
      },
    });
    // The history's copy of the status message is the same message.
    expect(task.history.at(-1)).toMatchObject({ messageId: task.status.message.messageId, metadata: task.status.message.metadata });

    // A client built on the official SDK reads it too, over either binding.
    for (const binding of ['JSONRPC', 'HTTP+JSON'] as const) {
      const client = await sdkClient(b.url, fetchWithToken(A_TO_B), binding);
      const seen = await client.getTask({ tenant: '', id: result.taskId as string });
      expect(seen.status?.message?.metadata).toEqual(task.status.message.metadata);
    }
  });

  it('a peer not trusted with budgets ignores the metadata: its own budgets apply, and the task completes', async () => {
    await b.writeConfig(configB(model.baseUrl, false));
    await waitFor(
      'B to stop trusting A with budgets',
      async () => !b.app.get(ConfigStore).current().config.channels.a2a.peers.a.trustBudget,
    );
    model.reset();
    const result = await aliceAsks();
    expect(result).toMatchObject({ status: 'ok', state: 'TASK_STATE_COMPLETED', reply: 'the numbers are crunched' });
    expect(bobCalls()).toBe(BOB_TOOL_ROUNDS + 1);

    // The same metadata sent straight to B, asking for next to nothing, is ignored just the same.
    model.reset();
    const message = {
      messageId: 'm-direct',
      role: 'ROLE_USER',
      parts: [{ text: 'crunch again' }],
      metadata: {
        'clawgate/budget': {
          origin: { agent: 'x', session: 'agent:x:main', channel: 'internal' },
          remaining: { tokens: 1 },
          budget: 'tiny',
        },
      },
    };
    const direct = (await a2aRpc(b.url, A_TO_B, 'SendMessage', { message })).result;
    expect(direct.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(bobCalls()).toBe(BOB_TOOL_ROUNDS + 1);
  });

  it('refuses a trustBudget that is not a boolean, naming the key', async () => {
    const res = await request(b.url)
      .post('/admin/config/validate')
      .send({ channels: { a2a: { peers: { a: { token: 'some-token-123', trustBudget: 'yes' } } } } })
      .expect(422);
    expect(JSON.stringify(res.body)).toContain('channels.a2a.peers.a.trustBudget');
  });
});
