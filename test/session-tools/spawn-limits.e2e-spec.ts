import request from 'supertest';
import { AgentRunner } from '../../src/modules/runtime/agent-runner.service';
import { ConfigStore } from '../../src/modules/config/config.store';
import { SESSION_STORE, SessionStore } from '../../src/modules/sessions/session-store.port';
import { API_CLIENT } from '../support/admin-client';
import { agentBrain } from '../support/agent-brain';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

/**
 * The spawn limits of agents.*.subagents over a real gateway whose agents' models are a scripted fake OpenAI server:
 * an agent asked to "nest" spawns a session that is asked the same, until a spawn is refused at the depth limit; an
 * agent whose model stalls keeps its children active, so the children limit is reached. Both are read from the
 * config served now: a reload applies to the next spawn.
 */
const config = (subagents: string, slowAgent = '{ id: "slow", model: "stall/slow" }') => `{
  gateway: { reload: { mode: "hot", debounceMs: 50 } },
  models: { providers: {
    brain: { api: "openai-chat", baseUrl: "BRAIN" },
    stall: { api: "openai-chat", baseUrl: "STALL" },
  } },
  agents: {
    defaults: { subagents: ${subagents} },
    list: [{ id: "main", default: true, model: "brain/main" }, ${slowAgent}],
  },
}`;

describe('spawn limits (e2e, scripted model)', () => {
  let brain: FakeOpenAiServer;
  let stall: FakeOpenAiServer;
  let gw: TestGateway;
  let runner: AgentRunner;
  let sessions: SessionStore;
  /** The depth-2 session of the first test. */
  let leafKey: string;
  const write = (subagents: string, slowAgent?: string) =>
    config(subagents, slowAgent).replace('BRAIN', brain.baseUrl).replace('STALL', stall.baseUrl);
  const reloadTo = async (text: string) => {
    const store = gw.app.get(ConfigStore);
    const before = store.current().revision;
    await gw.writeConfig(text);
    await waitFor('the reload', async () => store.current().revision !== before);
  };
  const spawnAs = (sessionKey: string, task: string) =>
    request(gw.url)
      .post(`/admin/sessions/${encodeURIComponent(sessionKey)}/spawn`)
      .set(API_CLIENT)
      .send({ task })
      .expect(200);

  beforeAll(async () => {
    [brain, stall] = await Promise.all([new FakeOpenAiServer().start(), new FakeOpenAiServer().start()]);
    brain.always(
      agentBrain(brain, ({ message, toolResult }) => {
        if (message.startsWith('nest') && !toolResult) return { tool: 'sessions_spawn', args: { task: message } };
        return { text: `result ${JSON.stringify(toolResult ?? {})}` };
      }),
    );
    stall.always(stall.stall());
    gw = await startTestGateway(write('{ maxSpawnDepth: 2, maxChildrenPerAgent: 2 }'));
    runner = gw.app.get(AgentRunner);
    sessions = gw.app.get(SESSION_STORE);
  });
  afterAll(async () => {
    await gw?.stop();
    await Promise.all([brain, stall].map((s) => s?.close()));
  });

  /** The tool result a run of the nesting brain reported in its reply. */
  const resultOf = async (runId: string) => {
    const run = await runner.waitForRun(runId, 10_000);
    expect(run.status).toBe('completed');
    return JSON.parse((run.reply as string).slice('result '.length)) as Record<string, unknown>;
  };

  it('refuses sessions_spawn at the depth limit with an error naming the key, the depth and the limit', async () => {
    const started = (await spawnAs('agent:main:main', 'nest please')).body;
    expect(started).toMatchObject({ status: 'accepted' });
    // depth 1 (spawned by main) spawns depth 2; depth 2 is refused.
    const second = await resultOf(started.runId);
    expect(second).toMatchObject({ status: 'accepted', childSessionKey: expect.stringMatching(/^agent:main:subagent:/) });
    const third = await resultOf(second.runId as string);
    expect(third).toEqual({
      status: 'forbidden',
      error:
        'sessions_spawn refused: depth 2 reaches agents.defaults.subagents.maxSpawnDepth 2 ' +
        '(this session may not spawn; do the work here, or report back to the session that spawned this one)',
    });
    // The depth comes from the stored lineage: the refused session's parent chain leads to main.
    leafKey = second.childSessionKey as string;
    const leaf = await sessions.get(leafKey);
    expect(leaf?.spawnedBy).toBe(started.childSessionKey);
    expect((await sessions.get(started.childSessionKey))?.spawnedBy).toBe('agent:main:main');
  });

  it('refuses one more active child than maxChildrenPerAgent, and counts again once children end', async () => {
    const parent = 'agent:slow:main';
    const a = (await spawnAs(parent, 'work a')).body;
    const b = (await spawnAs(parent, 'work b')).body;
    expect([a.status, b.status]).toEqual(['accepted', 'accepted']);
    const refused = (await spawnAs(parent, 'work c')).body;
    expect(refused).toEqual({
      status: 'forbidden',
      error:
        'sessions_spawn refused: 2 spawned sessions of this session are active, agents.defaults.subagents.maxChildrenPerAgent is 2 ' +
        '(wait for one to finish, or stop one with the subagents tool)',
    });
    // Another session's children do not count against this one.
    const other = (await spawnAs('agent:slow:other', 'work d')).body;
    expect(other.status).toBe('accepted');
    // A child that ended frees its place.
    expect(runner.abortRun(a.runId, 'test')).toBe(true);
    await runner.waitForRun(a.runId, 5000);
    const c = (await spawnAs(parent, 'work c')).body;
    expect(c.status).toBe('accepted');
    await runner.abortRuns([b.runId, c.runId, other.runId], 'test', 5000);
  });

  it('applies a reloaded limit to the next spawn, and an agent’s own limit over the defaults', async () => {
    const parent = 'agent:slow:reload';
    const first = (await spawnAs(parent, 'work 1')).body;
    const second = (await spawnAs(parent, 'work 2')).body;
    expect((await spawnAs(parent, 'work 3')).body.status).toBe('forbidden');

    await reloadTo(write('{ maxSpawnDepth: 2, maxChildrenPerAgent: 3 }'));
    const third = (await spawnAs(parent, 'work 3')).body;
    expect(third.status).toBe('accepted');

    // maxSpawnDepth 1: a spawned session (depth 1) may no longer spawn; the agent's own key wins over the default.
    await reloadTo(
      write('{ maxSpawnDepth: 1, maxChildrenPerAgent: 3 }', '{ id: "slow", model: "stall/slow", subagents: { maxChildrenPerAgent: 1 } }'),
    );
    const fromChild = (await spawnAs(first.childSessionKey, 'deeper')).body;
    expect(fromChild).toMatchObject({
      status: 'forbidden',
      error: expect.stringMatching(/^sessions_spawn refused: depth 1 reaches agents\.defaults\.subagents\.maxSpawnDepth 1 /),
    });
    expect((await spawnAs('agent:slow:fresh', 'one')).body.status).toBe('accepted');
    expect((await spawnAs('agent:slow:fresh', 'two')).body).toMatchObject({
      status: 'forbidden',
      error: expect.stringContaining('agents.list[1].subagents.maxChildrenPerAgent is 1'),
    });
    await runner.abortRuns(
      [first, second, third].map((r) => r.runId as string),
      'test',
      5000,
    );
  });

  it('knows a session’s depth after a restart: the lineage is stored with the sessions', async () => {
    gw = await gw.restart();
    runner = gw.app.get(AgentRunner);
    const refused = (await spawnAs(leafKey, 'nest again')).body;
    expect(refused).toMatchObject({
      status: 'forbidden',
      error: expect.stringMatching(/^sessions_spawn refused: depth 2 reaches agents\.defaults\.subagents\.maxSpawnDepth 1 /),
    });
  });
});
