import { AgentRunner } from '../../src/modules/runtime/agent-runner.service';
import { ToolRegistry } from '../../src/modules/runtime/tool-registry';
import { SessionToolsService } from '../../src/modules/session-tools/session-tools.service';
import { SessionsSendService } from '../../src/modules/session-tools/sessions-send.service';
import { SESSION_STORE, SessionStore } from '../../src/modules/sessions/session-store.port';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

const CONFIG = (visibility: string, a2a: string) => `{
  agents: { list: [
    { id: "main" },
    { id: "helper" },
    { id: "boxed", sandbox: { mode: "all" } },
    { id: "claude", model: "anthropic/claude-sonnet-4-6" },
  ] },
  tools: { sessions: { visibility: "${visibility}" }, agentToAgent: ${a2a} },
}`;

describe('session tools acting as a session (e2e, echo model)', () => {
  let gw: TestGateway;
  let tools: SessionToolsService;
  let registry: ToolRegistry;
  let store: SessionStore;
  let runner: AgentRunner;
  const ctx = (sessionKey: string) => ({ sessionKey, agentId: sessionKey.split(':')[1], signal: new AbortController().signal });

  beforeAll(async () => {
    gw = await startTestGateway(CONFIG('tree', '{ enabled: false }'));
    tools = gw.app.get(SessionToolsService);
    registry = gw.app.get(ToolRegistry);
    store = gw.app.get(SESSION_STORE);
    runner = gw.app.get(AgentRunner);
  });
  afterAll(() => gw.stop());

  it('sessions_spawn creates a child spawned by the caller and runs the task there', async () => {
    const spawned = await registry.call(
      { tools: { allow: [], deny: [] } },
      'sessions_spawn',
      { task: 'summarize the logs', label: 'logs' },
      ctx('agent:main:main'),
    );
    expect(spawned).toEqual({
      status: 'accepted',
      runId: expect.any(String),
      childSessionKey: expect.stringMatching(/^agent:main:subagent:[0-9a-f-]{36}$/),
    });
    const run = await runner.waitForRun(spawned.runId as string, 5000);
    expect(run).toMatchObject({ status: 'completed', reply: '[main] summarize the logs' });
    const child = spawned.childSessionKey as string;
    expect(await store.get(child)).toMatchObject({ spawnedBy: 'agent:main:main', label: 'logs' });

    const history = await tools.history('agent:main:main', { sessionKey: child });
    expect(history.status).toBe('ok');
    expect((history.messages as Array<{ role: string; text: string; provenance?: unknown }>).map((m) => [m.role, m.text])).toEqual([
      ['user', 'summarize the logs'],
      ['assistant', '[main] summarize the logs'],
    ]);
    expect((history.messages as Array<{ provenance?: unknown }>)[0].provenance).toEqual({
      kind: 'inter_session',
      sourceSessionKey: 'agent:main:main',
      sourceTool: 'sessions_spawn',
    });
    const status = await tools.status('agent:main:main', { sessionKey: child });
    expect(status).toMatchObject({ status: 'ok', run: { state: 'idle', running: 0, queued: 0 } });
  });

  it('visibility=tree hides a sibling session with the exact message; a taken label is an error', async () => {
    await store.getOrCreate('agent:main:other');
    const denied = await tools.history('agent:main:other', { sessionKey: 'agent:main:main' });
    expect(denied).toEqual({ status: 'forbidden', error: 'Session is not visible from this session (tools.sessions.visibility=tree).' });
    const dup = await tools.spawn({ sessionKey: 'agent:main:main' }, { task: 'again', label: 'logs' });
    expect(dup.status).toBe('error');
    expect(String(dup.error)).toContain('logs');
  });

  it('cross-agent access is forbidden while agent-to-agent is disabled, and by the sandbox whatever the config', async () => {
    expect(await tools.spawn({ sessionKey: 'agent:main:main' }, { task: 'x', agentId: 'helper' })).toEqual({
      status: 'forbidden',
      error: 'Session is not visible from this session (tools.sessions.visibility=tree).',
    });
    await gw.writeConfig(CONFIG('all', '{ enabled: false }'));
    await waitForVisibility('all');
    expect(await tools.spawn({ sessionKey: 'agent:main:main' }, { task: 'x', agentId: 'helper' })).toEqual({
      status: 'forbidden',
      error: 'Agent-to-agent messaging is disabled.',
    });
    await gw.writeConfig(CONFIG('all', '{ enabled: true, allow: ["main", "helper", "boxed"] }'));
    await waitForVisibility('all', true);
    const ok = await tools.spawn({ sessionKey: 'agent:main:main' }, { task: 'cross', agentId: 'helper' });
    expect(ok.status).toBe('accepted');
    expect((await runner.waitForRun(ok.runId as string, 5000)).reply).toBe('[helper] cross');
    const listed = await tools.list('agent:main:main', { agentId: 'helper' });
    expect((listed.sessions as Array<{ sessionKey: string }>).map((s) => s.sessionKey)).toContain(ok.childSessionKey);
    const boxed = await tools.spawn({ sessionKey: 'agent:boxed:main' }, { task: 'escape', agentId: 'main' });
    expect(boxed).toEqual({ status: 'forbidden', error: 'Session is not visible from this session (tools.sessions.visibility=tree).' });
    const boxedList = await tools.list('agent:boxed:main', {});
    expect((boxedList.sessions as Array<{ agentId: string }>).every((s) => s.agentId === 'boxed')).toBe(true);
  });

  it('validates tool arguments and answers unknown targets without throwing', async () => {
    const open = { tools: { allow: [], deny: [] } };
    expect(await registry.call(open, 'sessions_history', {}, ctx('agent:main:main'))).toEqual({
      status: 'error',
      error: 'invalid arguments for sessions_history: missing required argument "sessionKey"',
    });
    expect((await registry.call(open, 'sessions_list', { limit: 0 }, ctx('agent:main:main'))).error).toContain(
      'argument "limit" must be >= 1',
    );
    expect(await tools.history('agent:main:main', { sessionKey: 'not a key' })).toEqual({
      status: 'error',
      error: '"not a key" is not a session key (expected agent:<agentId>:<rest>)',
    });
    expect(await tools.status('agent:main:main', { sessionKey: 'agent:main:nothing-here' })).toEqual({
      status: 'not_found',
      error: 'no session agent:main:nothing-here',
    });
    // An agent the allow list does not name is refused before it is looked up, configured or not.
    expect(await tools.spawn({ sessionKey: 'agent:main:main' }, { task: 'x', agentId: 'ghost' })).toEqual({
      status: 'forbidden',
      error: 'Agent-to-agent messaging denied by tools.agentToAgent.allow.',
    });
  });

  it('a model whose provider has no API key ends the run as failed with a message naming the setting', async () => {
    const spawned = await tools.spawn({ sessionKey: 'agent:claude:main' }, { task: 'hello' });
    const run = await runner.waitForRun(spawned.runId as string, 5000);
    expect(run.status).toBe('failed');
    expect(run.error).toBe('no API key for provider anthropic: set ANTHROPIC_API_KEY or models.providers.anthropic.apiKey');
    const history = await store.history(spawned.childSessionKey as string);
    expect(history.lines.at(-1)).toMatchObject({ role: 'system', text: expect.stringContaining('no API key for provider anthropic') });
  });

  async function waitForVisibility(v: string, enabled = false): Promise<void> {
    const deadline = Date.now() + 20_000;
    const { ConfigStore } = await import('../../src/modules/config/config.store');
    const cs = gw.app.get(ConfigStore);
    while (Date.now() < deadline) {
      const c = cs.current().config;
      if (c.tools.sessions.visibility === v && c.tools.agentToAgent.enabled === enabled) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('config not applied');
  }
});

/**
 * Label and key probing across the agent-to-agent boundary: a session that may not reach another agent gets the
 * same answer from every session tool whether the label, session or agent it names exists there or not (the
 * check runs before the lookup); one that may reach it still tells a result from `not_found`.
 */
describe('session tools across the agent-to-agent boundary (e2e, echo model)', () => {
  let gw: TestGateway;
  let tools: SessionToolsService;
  let sender: SessionsSendService;
  // `outsider` matches no allow pattern; `ghost` does, but is not configured.
  const OUTSIDER = 'agent:outsider:main';
  const ALLOWED = 'agent:main:main';
  const HELD = 'agent:helper:desk';
  const DENIED = { status: 'forbidden', error: 'Agent-to-agent messaging denied by tools.agentToAgent.allow.' };

  beforeAll(async () => {
    gw = await startTestGateway(`{
  agents: { list: [{ id: "main" }, { id: "helper" }, { id: "outsider" }] },
  tools: { sessions: { visibility: "all" }, agentToAgent: { enabled: true, allow: ["main", "helper", "ghost"] } },
}`);
    tools = gw.app.get(SessionToolsService);
    sender = gw.app.get(SessionsSendService);
    await gw.app.get<SessionStore>(SESSION_STORE).getOrCreate(HELD, { label: 'release-plan' });
  });
  afterAll(() => gw.stop());

  it('sessions_send by label: the same refusal whether the label exists or not; an allowed agent is told apart', async () => {
    const send = (requester: string, label: string) =>
      sender.send({ sessionKey: requester }, { agentId: 'helper', label, message: 'hi', timeoutSeconds: 0 });
    expect(await send(OUTSIDER, 'release-plan')).toEqual(DENIED);
    expect(await send(OUTSIDER, 'no-such-label')).toEqual(DENIED);
    expect(await send(ALLOWED, 'release-plan')).toEqual({ status: 'accepted', runId: expect.any(String), sessionKey: HELD });
    expect(await send(ALLOWED, 'no-such-label')).toEqual({
      status: 'not_found',
      error: 'no session labelled "no-such-label" in agent helper',
    });
  });

  it('sessions_send by key and by agent: the same refusal whether the session or the agent exists or not', async () => {
    const send = (requester: string, target: { sessionKey?: string; agentId?: string }) =>
      sender.send({ sessionKey: requester }, { ...target, message: 'hi', timeoutSeconds: 0 });
    expect(await send(OUTSIDER, { sessionKey: HELD })).toEqual(DENIED);
    expect(await send(OUTSIDER, { sessionKey: 'agent:helper:nothing-here' })).toEqual(DENIED);
    expect(await send(OUTSIDER, { agentId: 'helper' })).toEqual(DENIED);
    expect(await send(OUTSIDER, { agentId: 'nobody' })).toEqual(DENIED);
    expect(await send(ALLOWED, { agentId: 'ghost' })).toEqual({ status: 'not_found', error: 'no agent "ghost"' });
  });

  it('sessions_history and session_status: the same refusal whether the session exists or not', async () => {
    for (const call of [tools.history.bind(tools), tools.status.bind(tools)]) {
      expect(await call(OUTSIDER, { sessionKey: HELD })).toEqual(DENIED);
      expect(await call(OUTSIDER, { sessionKey: 'agent:helper:nothing-here' })).toEqual(DENIED);
      expect((await call(ALLOWED, { sessionKey: HELD })).status).toBe('ok');
      expect(await call(ALLOWED, { sessionKey: 'agent:helper:nothing-here' })).toEqual({
        status: 'not_found',
        error: 'no session agent:helper:nothing-here',
      });
    }
  });

  it('sessions_list by label: the same empty answer whether the label exists or not', async () => {
    const list = (requester: string, label: string) => tools.list(requester, { agentId: 'helper', label });
    expect(await list(OUTSIDER, 'release-plan')).toEqual({ status: 'ok', count: 0, sessions: [] });
    expect(await list(OUTSIDER, 'no-such-label')).toEqual({ status: 'ok', count: 0, sessions: [] });
    expect(await list(ALLOWED, 'release-plan')).toMatchObject({ status: 'ok', count: 1, sessions: [{ sessionKey: HELD }] });
    expect(await list(ALLOWED, 'no-such-label')).toEqual({ status: 'ok', count: 0, sessions: [] });
  });

  it('sessions_spawn into another agent: the same refusal whether the agent exists or not', async () => {
    expect(await tools.spawn({ sessionKey: OUTSIDER }, { task: 'x', agentId: 'helper' })).toEqual(DENIED);
    expect(await tools.spawn({ sessionKey: OUTSIDER }, { task: 'x', agentId: 'nobody' })).toEqual(DENIED);
    expect(await tools.spawn({ sessionKey: ALLOWED }, { task: 'x', agentId: 'ghost' })).toEqual({
      status: 'not_found',
      error: 'no agent "ghost"',
    });
    expect((await tools.spawn({ sessionKey: ALLOWED }, { task: 'x', agentId: 'helper' })).status).toBe('accepted');
  });
});
