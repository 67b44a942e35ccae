import request from 'supertest';
import { AgentRunner } from '../../src/modules/runtime/agent-runner.service';
import { USAGE_STORE, type UsageStore } from '../../src/modules/usage';
import { agentBrain } from '../support/agent-brain';
import { lastUserText, type RecordedRequest } from '../support/fake-model-server';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

/**
 * Budgets follow the work (docs/usage.md#budgets-follow-the-work), on one gateway with real ports and a scripted
 * OpenAI-compatible model reporting 18 tokens a call: agent a `sessions_send`s to b, b `sessions_spawn`s a child of
 * agent c, and c goes on calling tools. Every run of that tree spends from a's per-request budget (150 tokens, a `run`
 * window): c is stopped there — the refusal names that budget — although c's own budget (and b's, and a's daily one)
 * is far from used. Without the origin c would have run its 9 model calls.
 */
const CALL_TOKENS = 18;
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));
const LIMIT = 150;

const config = (modelUrl: string) => `{
  models: { providers: { brain: { api: "openai-chat", baseUrl: "${modelUrl}" } } },
  agents: { list: [
    { id: "a", default: true, model: "brain/m" },
    { id: "b", model: "brain/m" },
    { id: "c", model: "brain/m" },
  ] },
  tools: { agentToAgent: { enabled: true, allow: ["*"] }, sessions: { visibility: "all" } },
  session: { agentToAgent: { maxPingPongTurns: 0 } },
  budgets: [
    { name: "per-request", agent: "a", tokens: ${LIMIT}, window: "run" },
    { name: "a-daily", agent: "a", tokens: 100000, window: "day" },
    { name: "b-daily", agent: "b", tokens: 100000, window: "day" },
    { name: "c-daily", agent: "c", tokens: 1000, window: "day" },
  ],
}`;

describe('budgets follow the work (e2e)', () => {
  let model: FakeOpenAiServer;
  let gw: TestGateway;
  let childRunId: string | undefined;
  let yieldChildRunId: string | undefined;

  beforeAll(async () => {
    model = await new FakeOpenAiServer().start();
    const brain = agentBrain(model, ({ agentId, step, message, toolResult }) => {
      if (message === 'spawn and yield') {
        if (!toolResult) return { tool: 'sessions_spawn', args: { agentId: 'c', task: 'a slow job' } };
        yieldChildRunId = toolResult.runId as string;
        return { tool: 'sessions_yield', args: {} };
      }
      if (message.startsWith('The sessions you spawned have finished')) return { text: 'all done' };
      if (agentId === 'a') {
        return toolResult
          ? { text: `a heard: ${String(toolResult.reply ?? toolResult.status)}` }
          : { tool: 'sessions_send', args: { sessionKey: 'agent:b:main', message: 'please get c on it', timeoutSeconds: 30 } };
      }
      if (agentId === 'b') {
        if (step === 'announce') return { text: 'ANNOUNCE_SKIP' };
        if (!toolResult) return { tool: 'sessions_spawn', args: { agentId: 'c', task: 'crunch the numbers' } };
        childRunId = toolResult.runId as string;
        return { text: 'REPLY_SKIP' };
      }
      // c never finishes on its own: a tool round after another, until something stops it.
      return message === 'crunch the numbers' ? { tool: 'session_status', args: {} } : { text: 'ok' };
    });
    model.always((req: RecordedRequest) =>
      // The slow job is still running when its parent yields.
      lastUserText(req) === 'a slow job' ? { after: delay(300), reply: model.text('done slowly')(req) } : brain(req),
    );
    gw = await startTestGateway(config(model.baseUrl));
  });
  afterAll(async () => {
    await gw?.stop();
    await model?.close();
  });

  it("stops the grandchild at the origin's per-request budget, naming it, though every agent's own budget is larger", async () => {
    const runner = gw.app.get(AgentRunner);
    const root = runner.startRun({ sessionKey: 'agent:a:main', message: 'start the work' });
    await waitFor('b to spawn the child', async () => childRunId !== undefined, 15_000);
    const child = await runner.waitForRun(childRunId!, 20_000);
    expect(child.status).toBe('failed');
    expect(child.refusal).toEqual({ reason: 'BUDGET_EXHAUSTED', budget: 'per-request' });
    expect(child.error).toMatch(
      new RegExp(
        `^budget "per-request" exhausted: ${LIMIT} tokens per run for agent a, where this work started, \\d+ used; it does not reset within this run$`,
      ),
    );
    await root.done;

    // What the tree spent, per agent and in all: the origin's limit and at most one call per run in flight past it.
    const store = gw.app.get<UsageStore>(USAGE_STORE);
    const tree = await store.spent({ column: 'run_id', value: root.runId, from: 0, origin: true });
    expect(tree.tokens).toBeGreaterThanOrEqual(LIMIT);
    expect(tree.tokens).toBeLessThan(LIMIT + 3 * CALL_TOKENS);
    const usage = (await request(gw.url).get('/admin/usage?groupBy=agent').expect(200)).body.items as Array<{
      group: string;
      calls: number;
      inputTokens: number;
      outputTokens: number;
    }>;
    const used = Object.fromEntries(usage.map((g) => [g.group, g.inputTokens + g.outputTokens]));
    expect(Object.keys(used).sort()).toEqual(['a', 'b', 'c']);
    expect(used.a + used.b + used.c).toBe(tree.tokens);
    expect(used.c).toBeGreaterThan(0);
    expect(used.c).toBeLessThan(1000);
    // c was cut short: a run of its own would have made 9 model calls (8 tool rounds, then the round limit).
    const cCalls = usage.find((g) => g.group === 'c')!.calls;
    expect(cCalls).toBeLessThan(9);
  });

  it('a turn resumed after sessions_yield goes on with the yielding run’s work: its calls count for the same origin', async () => {
    const runner = gw.app.get(AgentRunner);
    const store = gw.app.get<UsageStore>(USAGE_STORE);
    const sessionKey = 'agent:a:yielding';
    const root = runner.startRun({ sessionKey, message: 'spawn and yield' });
    expect(await root.done).toMatchObject({ status: 'completed', reply: 'Waiting for 1 spawned session(s) to finish.' });
    const resumed = await waitFor(
      'the yielding session to be resumed and answer',
      async () => runner.runsOfSessions(new Set([sessionKey])).find((r) => r.runId !== root.runId && r.status === 'completed'),
      15_000,
    );
    expect(resumed.reply).toBe('all done');
    const own = async (runId: string) => (await store.spent({ column: 'run_id', value: runId, from: 0 })).tokens;
    const tree = await store.spent({ column: 'run_id', value: root.runId, from: 0, origin: true });
    // The yielding run's two calls, the child's one and the resumed turn's one: all one piece of work.
    expect([await own(root.runId), await own(yieldChildRunId!), await own(resumed.runId)]).toEqual([2, 1, 1].map((n) => n * CALL_TOKENS));
    expect(tree.tokens).toBe(4 * CALL_TOKENS);
  });
});
