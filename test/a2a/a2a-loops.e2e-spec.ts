import { AgentRunner } from '../../src/modules/runtime/agent-runner.service';
import { SESSION_STORE, SessionStore } from '../../src/modules/sessions/session-store.port';
import { agentBrain } from '../support/agent-brain';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

const config = (baseUrl: string, agents: string[], extra: string) => `{
  models: { providers: { fake: { api: "openai-chat", baseUrl: "${baseUrl}" } } },
  agents: { defaults: { model: "fake/brain" }, list: [${agents.map((id) => `{ id: "${id}" }`).join(', ')}] },
  tools: { agentToAgent: { enabled: true }, sessions: { visibility: "all" } },
  session: { agentToAgent: ${extra} },
}`;

describe('agent-to-agent loops and nesting (e2e, scripted OpenAI-compatible model)', () => {
  let model: FakeOpenAiServer;
  let gw: TestGateway;
  beforeEach(async () => {
    model = await new FakeOpenAiServer().start();
  });
  afterEach(async () => {
    await gw?.stop();
    await model.close();
  });

  it('an A→B→C→A storm stops at maxChainHops with a bounded number of runs', async () => {
    const next: Record<string, string> = { a: 'b', b: 'c', c: 'a' };
    const refusals: unknown[] = [];
    model.always(
      agentBrain(model, ({ agentId, step, toolResult }) => {
        if (step === 'announce') return { text: 'ANNOUNCE_SKIP' };
        if (toolResult) {
          if (toolResult.status === 'forbidden') refusals.push(toolResult);
          return { text: `${agentId} done` };
        }
        return { tool: 'sessions_send', args: { agentId: next[agentId], message: `pass it on from ${agentId}`, timeoutSeconds: 0 } };
      }),
    );
    gw = await startTestGateway(config(model.baseUrl, ['a', 'b', 'c'], '{ maxPingPongTurns: 0, maxChainHops: 4 }'));
    const runner = gw.app.get(AgentRunner);
    const first = runner.startRun({ sessionKey: 'agent:a:main', message: 'start the relay' });
    expect((await first.done).status).toBe('completed');
    await waitFor('the refusal at the hop limit', async () => refusals.length === 1, 10000);
    // Let anything still queued show itself before counting.
    await new Promise((r) => setTimeout(r, 500));
    expect(refusals).toEqual([{ status: 'forbidden', error: 'agent-to-agent chain exceeded session.agentToAgent.maxChainHops' }]);
    // start run: 2 requests; 4 accepted hops × (round one: 2 requests + announce: 1 request) = 12
    expect(model.requests).toHaveLength(14);
  });

  it('no deadlock: 20 concurrent A runs each message B, whose round one messages A back', async () => {
    model.always(
      agentBrain(model, ({ agentId, step, toolResult, system }) => {
        if (step === 'announce') return { text: 'ANNOUNCE_SKIP' };
        if (toolResult) return { text: `${agentId} got ${String(toolResult.status)}` };
        if (agentId === 'b' && step === 'round-one') {
          // Message back the very session whose run is waiting for this answer.
          const requester = /\(session (agent:a:[^)]+)\)/.exec(system)?.[1];
          return { tool: 'sessions_send', args: { sessionKey: requester, message: 'a question back to A', timeoutSeconds: 20 } };
        }
        if (agentId === 'a' && step === 'plain') {
          return { tool: 'sessions_send', args: { agentId: 'b', message: 'help me', timeoutSeconds: 20 } };
        }
        return { text: `${agentId} answers` };
      }),
    );
    gw = await startTestGateway(config(model.baseUrl, ['a', 'b'], '{ maxPingPongTurns: 1, maxChainHops: 8 }'));
    const runner = gw.app.get(AgentRunner);
    const handles = Array.from({ length: 20 }, (_, i) => runner.startRun({ sessionKey: `agent:a:chat-${i}`, message: `task ${i}` }));
    const records = await Promise.all(handles.map((h) => h.done));
    expect(records.map((r) => r.status)).toEqual(Array(20).fill('completed'));
    expect(records.every((r) => r.reply === 'a got ok')).toBe(true);
    const store = gw.app.get<SessionStore>(SESSION_STORE);
    for (let i = 0; i < 20; i++) {
      const { lines } = await store.history(`agent:a:chat-${i}`);
      // B's question reached the waiting session and was answered while its run was still waiting.
      const asked = lines.findIndex((l) => l.role === 'user' && l.text === 'a question back to A');
      expect(asked).toBeGreaterThan(0);
      expect(lines[asked + 1]).toMatchObject({ role: 'assistant', text: 'a answers' });
    }
  });
});
