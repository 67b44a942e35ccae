import request from 'supertest';
import { AgentRunner } from '../../src/modules/runtime/agent-runner.service';
import { API_CLIENT } from '../support/admin-client';
import { agentBrain } from '../support/agent-brain';
import type { RecordedRequest } from '../support/fake-model-server';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

/**
 * The operator's view of a tree of runs over a real gateway whose model is a scripted fake OpenAI server: a run
 * spawns a session ("middle") and completes; the middle session spawns a leaf and its next model call stalls, the
 * leaf's too. The tree shows all three live; a steer of the middle session queues behind its stalled turn and joins
 * the tree; a kill of the completed root aborts everything below it, each model connection closed (the fake server
 * sees the client hang up) within a second.
 */
const OPERATOR = 'tree-operator-token-5a6b7c8d';
const VIEWER = 'tree-viewer-token-1e2f3a4b';

describe('run tree, kill and steer (e2e, scripted model)', () => {
  let brain: FakeOpenAiServer;
  let gw: TestGateway;
  let runner: AgentRunner;
  const as = (token: string) => ({ Authorization: `Bearer ${token}`, ...API_CLIENT });

  beforeAll(async () => {
    brain = await new FakeOpenAiServer().start();
    const decide = agentBrain(brain, ({ message, toolResult }) => {
      if (message === 'fan out' && !toolResult) return { tool: 'sessions_spawn', args: { task: 'middle', label: 'middle' } };
      if (message === 'middle' && !toolResult) return { tool: 'sessions_spawn', args: { task: 'leaf' } };
      return { text: `done ${message}` };
    });
    // The middle session's turn after its spawn, and the leaf's only turn, never end: their runs stay running.
    const stalls = (req: RecordedRequest) => {
      const messages: Array<{ role: string; content: string | null }> = req.body.messages;
      const lastUser = [...messages].reverse().find((m) => m.role === 'user')?.content;
      return (lastUser === 'middle' && messages.at(-1)?.role === 'tool') || lastUser === 'leaf';
    };
    brain.always((req) => (stalls(req) ? 'stall' : decide(req)));
    gw = await startTestGateway(`{
      models: { providers: { brain: { api: "openai-chat", baseUrl: "${brain.baseUrl}", models: [{ id: "main", cost: { input: 2, output: 10 } }] } } },
      agents: { list: [{ id: "main", default: true, model: "brain/main" }] },
      gateway: { admin: { tokens: [
        { name: "op", token: "${OPERATOR}", role: "operator" },
        { name: "ro", token: "${VIEWER}", role: "viewer" },
      ] } },
    }`);
    runner = gw.app.get(AgentRunner);
  });
  afterAll(async () => {
    await gw?.stop();
    await brain?.close();
  });

  it('shows the live tree, steers a running child, and kills the subtree with every model stream closed within a second', async () => {
    const root = (
      await request(gw.url)
        .post(`/admin/sessions/${encodeURIComponent('agent:main:main')}/spawn`)
        .set(as(OPERATOR))
        .send({ task: 'fan out' })
        .expect(200)
    ).body as { runId: string; childSessionKey: string };
    expect((await runner.waitForRun(root.runId, 10_000)).status).toBe('completed');
    // Two model requests held open: the middle session's second turn and the leaf's.
    await waitFor('both stalled model calls', async () => brain.requests.length >= 5 && runner.descendantsOf(root.runId).length === 2);
    await waitFor('the leaf to reach its model', async () => runner.descendantsOf(root.runId).every((r) => r.status === 'running'));

    const tree = (await request(gw.url).get(`/admin/runs/${root.runId}/tree`).set(as(OPERATOR)).expect(200)).body;
    expect(tree).toMatchObject({
      runId: root.runId,
      status: 'completed',
      agentId: 'main',
      sessionKey: root.childSessionKey,
      model: 'brain/main',
      spawnedBy: 'agent:main:main',
      usage: { inputTokens: 22, outputTokens: 14 },
      // Two calls of 11 input and 7 output tokens, at 2 and 10 per million.
      cost: expect.closeTo((22 * 2 + 14 * 10) / 1_000_000, 12),
      elapsedMs: expect.any(Number),
      children: [
        {
          status: 'running',
          parentRunId: root.runId,
          spawnedBy: root.childSessionKey,
          sessionKey: expect.stringMatching(/^agent:main:subagent:/),
          children: [{ status: 'running', sessionKey: expect.stringMatching(/^agent:main:subagent:/), children: [] }],
        },
      ],
    });
    const middle = tree.children[0] as { runId: string; sessionKey: string };
    const leaf = tree.children[0].children[0] as { runId: string; sessionKey: string };

    // A steer of the busy middle session waits behind its turn, in the root's tree.
    const steered = (
      await request(gw.url)
        .post(`/admin/sessions/${encodeURIComponent(middle.sessionKey)}/steer`)
        .set(as(OPERATOR))
        .send({ message: 'wrap up now' })
        .expect(200)
    ).body;
    expect(steered).toEqual({ status: 'accepted', runId: expect.any(String), sessionKey: middle.sessionKey, queuedBehind: 1 });
    const withSteer = (await request(gw.url).get(`/admin/runs/${root.runId}/tree`).set(as(OPERATOR)).expect(200)).body;
    expect(withSteer.children.map((c: { runId: string; status: string }) => [c.runId, c.status])).toEqual([
      [middle.runId, 'running'],
      [steered.runId, 'queued'],
    ]);

    expect(brain.clientAborts).toBe(0);
    const started = Date.now();
    // Sent now (supertest sends on the first then), answered once every run of the tree has stopped.
    const killing = Promise.resolve(request(gw.url).post(`/admin/runs/${root.runId}/kill`).set(as(OPERATOR)).expect(200));
    await waitFor('both model streams closed', async () => brain.clientAborts === 2, 1000);
    expect(Date.now() - started).toBeLessThan(1000);
    const killed = (await killing).body;
    expect([...killed.aborted].sort()).toEqual([middle.runId, leaf.runId, steered.runId].sort());
    expect(killed.tree.status).toBe('completed');
    expect(killed.tree.children.map((c: { status: string }) => c.status)).toEqual(['aborted', 'aborted']);
    expect(killed.tree.children[0].children[0]).toMatchObject({ runId: leaf.runId, status: 'aborted' });
    // The queued steer never reached the model.
    expect(brain.requests.length).toBe(5);

    // Nothing left to stop.
    const again = await request(gw.url).post(`/admin/runs/${root.runId}/kill`).set(as(OPERATOR)).expect(400);
    expect(again.body.detail).toBe(`run ${root.runId} and the runs it started are already over (completed)`);
  });

  it('refuses a viewer, an unknown run, a text that is no run id, and a steer of a missing session, each naming it', async () => {
    const unknown = '0b6f2a8e-3c1d-4f5e-9a7b-2d4c6e8f0a1b';
    await request(gw.url).get(`/admin/runs/${unknown}/tree`).set(as(VIEWER)).expect(403);
    await request(gw.url).post(`/admin/runs/${unknown}/kill`).set(as(VIEWER)).expect(403);
    await request(gw.url)
      .post(`/admin/sessions/${encodeURIComponent('agent:main:main')}/steer`)
      .set(as(VIEWER))
      .send({ message: 'x' })
      .expect(403);
    for (const [method, path] of [
      ['get', `/admin/runs/${unknown}/tree`],
      ['post', `/admin/runs/${unknown}/kill`],
    ] as const) {
      const res = await request(gw.url)[method](path).set(as(OPERATOR)).expect(404);
      expect(res.body.detail).toContain(unknown);
    }
    const garbage = await request(gw.url).get('/admin/runs/not-a-run/tree').set(as(OPERATOR)).expect(400);
    expect(garbage.body.detail).toContain('"not-a-run" is not a run id');
    const missing = 'agent:main:subagent:nobody';
    const steer = await request(gw.url)
      .post(`/admin/sessions/${encodeURIComponent(missing)}/steer`)
      .set(as(OPERATOR))
      .send({ message: 'hello' })
      .expect(404);
    expect(steer.body.detail).toBe(`no session ${missing}`);
    const bad = await request(gw.url)
      .post(`/admin/sessions/${encodeURIComponent('agent:main:main')}/steer`)
      .set(as(OPERATOR))
      .send({ message: '', extra: 1 })
      .expect(400);
    expect(bad.body.detail).toBe('unknown field "extra" (the body is {"message": "…"})');
  });
});
