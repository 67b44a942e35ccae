import { AgentRunner } from '../../src/modules/runtime/agent-runner.service';
import { ToolRegistry } from '../../src/modules/runtime/tool-registry';
import { agentBrain } from '../support/agent-brain';
import type { RecordedRequest } from '../support/fake-model-server';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

/**
 * The `subagents` tool over a real gateway whose model is a scripted fake OpenAI server. Session alpha's run
 * delegates ("delegate" → spawns "middle", which spawns "leaf"); the middle and leaf turns stall, so their runs stay
 * running. Alpha lists, steers and kills its own descendants; beta (an unrelated session), the middle session and the
 * leaf session cannot touch what is not below them — refused the same whether the target exists or not.
 */
describe('subagents tool (e2e, scripted model)', () => {
  let brain: FakeOpenAiServer;
  let gw: TestGateway;
  let runner: AgentRunner;
  let registry: ToolRegistry;
  const ALPHA = 'agent:main:alpha';
  const BETA = 'agent:main:beta';
  const call = (sessionKey: string, args: Record<string, unknown>) =>
    registry.call({ tools: { allow: [], deny: [] } }, 'subagents', args, {
      sessionKey,
      agentId: 'main',
      signal: new AbortController().signal,
    });

  beforeAll(async () => {
    brain = await new FakeOpenAiServer().start();
    const decide = agentBrain(brain, ({ message, toolResult }) => {
      if (message === 'delegate' && !toolResult) return { tool: 'sessions_spawn', args: { task: 'middle' } };
      if (message === 'middle' && !toolResult) return { tool: 'sessions_spawn', args: { task: 'leaf' } };
      if (message === 'check on them' && !toolResult) return { tool: 'subagents', args: { action: 'list' } };
      return { text: `seen ${JSON.stringify(toolResult ?? {})}` };
    });
    const stalls = (req: RecordedRequest) => {
      const messages: Array<{ role: string; content: string | null }> = req.body.messages;
      const lastUser = [...messages].reverse().find((m) => m.role === 'user')?.content;
      return (lastUser === 'middle' && messages.at(-1)?.role === 'tool') || lastUser === 'leaf';
    };
    brain.always((req) => (stalls(req) ? 'stall' : decide(req)));
    gw = await startTestGateway(`{
      models: { providers: { brain: { api: "openai-chat", baseUrl: "${brain.baseUrl}" } } },
      agents: { list: [{ id: "main", default: true, model: "brain/main" }] },
    }`);
    runner = gw.app.get(AgentRunner);
    registry = gw.app.get(ToolRegistry);
  });
  afterAll(async () => {
    await gw?.stop();
    await brain?.close();
  });

  it('lists, steers and kills only the caller’s own descendants', async () => {
    const root = runner.startRun({ sessionKey: ALPHA, message: 'delegate' });
    expect((await root.done).status).toBe('completed');
    await waitFor('the middle and leaf runs to reach their models', async () => {
      const below = runner.descendantsOf(root.runId);
      return below.length === 2 && below.every((r) => r.status === 'running') && brain.requests.length >= 5;
    });

    // list: alpha's one spawned session, with its run and the leaf's below it.
    const listed = await call(ALPHA, { action: 'list' });
    expect(listed).toMatchObject({
      status: 'ok',
      count: 1,
      children: [{ state: 'running', runs: [{ status: 'running', children: [{ status: 'running', children: [] }] }] }],
    });
    const middle = (
      listed.children as Array<{
        sessionKey: string;
        runs: Array<{ runId: string; children: Array<{ runId: string; sessionKey: string }> }>;
      }>
    )[0];
    const middleRun = middle.runs[0].runId;
    const leaf = middle.runs[0].children[0];

    // Isolation: another session sees nothing and may touch nothing of alpha's tree; a child may not touch its parent
    // or itself, whether the target exists or not.
    expect(await call(BETA, { action: 'list' })).toEqual({ status: 'ok', count: 0, children: [] });
    const refusals = [
      [BETA, { action: 'steer', target: middle.sessionKey, message: 'hi' }],
      [BETA, { action: 'kill', target: middle.sessionKey }],
      [BETA, { action: 'kill', target: middleRun }],
      [BETA, { action: 'kill', target: 'agent:main:subagent:does-not-exist' }],
      [middle.sessionKey, { action: 'kill', target: ALPHA }],
      [middle.sessionKey, { action: 'kill', target: root.runId }],
      [leaf.sessionKey, { action: 'steer', target: middle.sessionKey, message: 'hi' }],
      [leaf.sessionKey, { action: 'kill', target: leaf.sessionKey }],
    ] as const;
    for (const [caller, args] of refusals) {
      expect(await call(caller, args)).toEqual({
        status: 'forbidden',
        error: `${args.target} is not a session this session spawned (directly or below it); subagents acts only on this session's own descendants`,
      });
    }
    expect(
      runner
        .liveRuns()
        .map((r) => r.runId)
        .sort(),
    ).toEqual([middleRun, leaf.runId].sort());
    expect(brain.clientAborts).toBe(0);

    // steer: the grandchild is busy, so the message waits as its next turn.
    const steered = await call(ALPHA, { action: 'steer', target: leaf.sessionKey, message: 'change of plan' });
    expect(steered).toEqual({ status: 'accepted', runId: expect.any(String), sessionKey: leaf.sessionKey, queuedBehind: 1 });
    expect(runner.getRun(steered.runId as string)?.status).toBe('queued');

    // kill: the middle session and everything below it, the queued steer included; both model streams closed.
    const killed = await call(ALPHA, { action: 'kill', target: middle.sessionKey });
    expect(killed).toMatchObject({ status: 'ok', sessionKey: middle.sessionKey });
    expect([...(killed.aborted as string[])].sort()).toEqual([middleRun, leaf.runId, steered.runId].sort());
    await waitFor('both model streams closed', async () => brain.clientAborts === 2, 1000);
    expect(runner.liveRuns()).toEqual([]);
    expect(brain.requests).toHaveLength(5);

    // The model calls the tool itself: alpha's next turn lists its child, now idle.
    const check = runner.startRun({ sessionKey: ALPHA, message: 'check on them' });
    const done = await check.done;
    expect(done.status).toBe('completed');
    const seen = JSON.parse((done.reply as string).slice('seen '.length));
    expect(seen).toMatchObject({ status: 'ok', count: 1, children: [{ sessionKey: middle.sessionKey, state: 'idle' }] });
  });

  it('names what is wrong with its arguments', async () => {
    expect(await call(ALPHA, { action: 'steer', target: 'agent:main:main' })).toEqual({
      status: 'forbidden',
      error: expect.stringContaining('is not a session this session spawned'),
    });
    expect(await call(ALPHA, { action: 'kill' })).toEqual({ status: 'error', error: 'kill needs a target: a session key or run id' });
    expect(await call(ALPHA, { action: 'kill', target: 'nonsense' })).toEqual({
      status: 'error',
      error: '"nonsense" is neither a session key (agent:<agentId>:<rest>) nor a run id',
    });
    expect((await call(ALPHA, { action: 'explode' })).status).toBe('error');
  });
});
