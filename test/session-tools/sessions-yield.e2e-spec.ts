import request from 'supertest';
import { AgentRunner } from '../../src/modules/runtime/agent-runner.service';
import { API_CLIENT } from '../support/admin-client';
import { agentBrain } from '../support/agent-brain';
import type { RecordedRequest } from '../support/fake-model-server';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

/**
 * sessions_yield over a real gateway whose model is a scripted fake OpenAI server: a session spawns a worker, yields
 * its turn (the model is not asked again), and is resumed with the worker's result as its next message once the
 * worker is done. A yield with nothing to wait for is an error; a tree killed while it waits is not resumed.
 */
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('sessions_yield (e2e, scripted model)', () => {
  let brain: FakeOpenAiServer;
  let gw: TestGateway;
  let runner: AgentRunner;

  beforeAll(async () => {
    brain = await new FakeOpenAiServer().start();
    const decide = agentBrain(brain, ({ message, toolResult }) => {
      if ((message === 'research' || message === 'stuck research') && !toolResult) {
        return { tool: 'sessions_spawn', args: { task: message === 'research' ? 'part one' : 'never ends' } };
      }
      if (toolResult?.childSessionKey) return { tool: 'sessions_yield', args: {} };
      if (message === 'yield alone' && !toolResult) return { tool: 'sessions_yield', args: { message: 'waiting' } };
      return { text: `final: ${message}${toolResult ? ` ${JSON.stringify(toolResult)}` : ''}` };
    });
    brain.always((req: RecordedRequest) => {
      const user = [...(req.body.messages as Array<{ role: string; content: string }>)].reverse().find((m) => m.role === 'user')?.content;
      // The worker takes a while: it is still running when its parent yields.
      if (user === 'part one') return { after: delay(300), reply: brain.text('finding one')(req) };
      if (user === 'never ends') return 'stall';
      return decide(req);
    });
    gw = await startTestGateway(`{
      models: { providers: { brain: { api: "openai-chat", baseUrl: "${brain.baseUrl}" } } },
      agents: { list: [{ id: "main", default: true, model: "brain/main" }] },
    }`);
    runner = gw.app.get(AgentRunner);
  });
  afterAll(async () => {
    await gw?.stop();
    await brain?.close();
  });

  it('ends the turn at once and resumes the session with the spawned sessions’ results when they finish', async () => {
    const session = 'agent:main:lead';
    const root = runner.startRun({ sessionKey: session, message: 'research' });
    const yielded = await root.done;
    expect(yielded).toMatchObject({ status: 'completed', reply: 'Waiting for 1 spawned session(s) to finish.', toolRounds: 2 });
    const [worker] = runner.descendantsOf(root.runId);
    expect(worker.status).not.toBe('completed');
    // Two model calls of the lead (spawn, yield) and none after the yield.
    const leadCalls = () => brain.requests.filter((r) => JSON.stringify(r.body.messages).includes('"research"')).length;
    expect(leadCalls()).toBe(2);

    const resumed = await waitFor('the resumed turn', async () => {
      const runs = runner.runsOfSessions(new Set([session]));
      return runs.length === 2 && runs[1].status === 'completed' && runs[1];
    });
    expect(resumed.parentRunId).toBe(root.runId);
    expect(resumed.reply).toBe(
      `final: The sessions you spawned have finished (sessions_yield):\n- ${worker.sessionKey} (run ${worker.runId}) completed: finding one`,
    );
    expect((await runner.waitForRun(worker.runId, 1000)).status).toBe('completed');
  });

  it('is an error with nothing to wait for, and resumes nothing once the tree it waits for is killed', async () => {
    const alone = await runner.startRun({ sessionKey: 'agent:main:alone', message: 'yield alone' }).done;
    expect(alone.reply).toBe(
      'final: yield alone {"status":"error","error":"no session this session spawned is working: nothing to wait for (the results are already in)"}',
    );

    const session = 'agent:main:stuck';
    const root = runner.startRun({ sessionKey: session, message: 'stuck research' });
    expect((await root.done).reply).toBe('Waiting for 1 spawned session(s) to finish.');
    await waitFor('the worker to reach its model', async () => runner.descendantsOf(root.runId)[0]?.status === 'running');
    await request(gw.url).post(`/admin/runs/${root.runId}/kill`).set(API_CLIENT).expect(200);
    await delay(300);
    expect(runner.runsOfSessions(new Set([session])).map((r) => r.runId)).toEqual([root.runId]);
  });
});
