import request from 'supertest';
import { ConfigStore } from '../../src/modules/config/config.store';
import { AgentRunner } from '../../src/modules/runtime/agent-runner.service';
import { ToolRegistry } from '../../src/modules/runtime/tool-registry';
import { SessionsSendService } from '../../src/modules/session-tools/sessions-send.service';
import { SESSION_STORE, SessionStore, TranscriptLine } from '../../src/modules/sessions/session-store.port';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

const CONFIG = (allow: string, pingPong = 2, hops = 8) => `{
  agents: { list: [{ id: "support" }, { id: "expert" }, { id: "boxed", sandbox: { mode: "all" } }] },
  tools: { agentToAgent: { enabled: true, allow: ${allow} }, sessions: { visibility: "all" } },
  session: { agentToAgent: { maxPingPongTurns: ${pingPong}, maxChainHops: ${hops} } },
}`;

describe('sessions_send (e2e, echo model)', () => {
  let gw: TestGateway;
  let send: SessionsSendService;
  let store: SessionStore;
  let runner: AgentRunner;

  beforeEach(async () => {
    gw = await startTestGateway(CONFIG('["support", "expert"]'));
    send = gw.app.get(SessionsSendService);
    store = gw.app.get(SESSION_STORE);
    runner = gw.app.get(AgentRunner);
  });
  afterEach(() => gw.stop());

  const steps = (lines: TranscriptLine[]) =>
    lines.map((l) => `${l.role}:${(l.meta?.sessionsSend as { step?: string } | undefined)?.step ?? '-'}`);

  it('waits for the reply, then runs the ping-pong and the announce in the background', async () => {
    await store.getOrCreate('agent:support:main');
    const result = await send.send({ sessionKey: 'agent:support:main' }, { agentId: 'expert', message: 'why is the build red?' });
    expect(result).toEqual({
      status: 'ok',
      runId: expect.any(String),
      sessionKey: 'agent:expert:main',
      reply: '[expert] why is the build red?',
    });

    const expert = await waitFor('announce step in expert', async () => {
      const { lines } = await store.history('agent:expert:main');
      return lines.some((l) => l.role === 'system' && (l.meta?.sessionsSend as { step?: string })?.step === 'delivery') ? lines : undefined;
    });
    // round one, target's ping-pong turn (turn 2 of 2), announce, delivery outcome (no channel to post to)
    expect(steps(expert)).toEqual([
      'user:round-one',
      'assistant:round-one',
      'user:ping-pong',
      'assistant:ping-pong',
      'user:announce',
      'assistant:announce',
      'system:delivery',
    ]);
    expect(expert[0].provenance).toMatchObject({
      kind: 'inter_session',
      sourceSessionKey: 'agent:support:main',
      sourceTool: 'sessions_send',
      hop: 1,
    });
    expect(expert.at(-1)?.text).toBe('announce skipped: the session has no delivery context (no channel to post to)');
    const { lines: supportLines } = await store.history('agent:support:main');
    expect(steps(supportLines)).toEqual(['user:ping-pong', 'assistant:ping-pong']);
    expect(supportLines[0].text).toBe('[expert] why is the build red?');
    expect(supportLines[1].text).toBe('[support] [expert] why is the build red?');
  });

  it('answers accepted at once with timeoutSeconds 0', async () => {
    const result = await send.send({ sessionKey: 'agent:support:main' }, { agentId: 'expert', message: 'later', timeoutSeconds: 0 });
    expect(result).toEqual({ status: 'accepted', runId: expect.any(String), sessionKey: 'agent:expert:main' });
    expect((await runner.waitForRun(result.runId as string, 5000)).reply).toBe('[expert] later');
  });

  it('is forbidden by the allow list, the sandbox and the chain-hop limit, leaving the target untouched', async () => {
    await gw.writeConfig(CONFIG('["support"]'));
    const configStore = gw.app.get(ConfigStore);
    await waitFor('the new allow list', async () => configStore.current().config.tools.agentToAgent.allow.length === 1);
    expect(await send.send({ sessionKey: 'agent:support:main' }, { agentId: 'expert', message: 'x' })).toEqual({
      status: 'forbidden',
      error: 'Agent-to-agent messaging denied by tools.agentToAgent.allow.',
    });
    expect(await send.send({ sessionKey: 'agent:boxed:main' }, { agentId: 'support', message: 'x' })).toEqual({
      status: 'forbidden',
      error: 'Session is not visible from this session (tools.sessions.visibility=tree).',
    });
    expect(await send.send({ sessionKey: 'agent:boxed:main' }, { agentId: 'support', label: 'x', message: 'x' })).toEqual({
      status: 'forbidden',
      error: 'Sandboxed sessions_send label lookup is limited to this agent',
    });
    const hop = await send.send(
      {
        sessionKey: 'agent:support:main',
        provenance: { kind: 'inter_session', sourceSessionKey: 'agent:expert:main', sourceTool: 'sessions_send', chainId: 'c', hop: 8 },
      },
      { sessionKey: 'agent:support:other', message: 'x' },
    );
    expect(hop).toEqual({ status: 'forbidden', error: 'agent-to-agent chain exceeded session.agentToAgent.maxChainHops' });
    expect(await store.get('agent:expert:main')).toBeUndefined();
  });

  it('validates arguments through the tool registry', async () => {
    const registry = gw.app.get(ToolRegistry);
    const ctx = { sessionKey: 'agent:support:main', agentId: 'support', signal: new AbortController().signal };
    const open = { tools: { allow: [], deny: [] } };
    expect((await registry.call(open, 'sessions_send', { agentId: 'expert' }, ctx)).error).toBe(
      'invalid arguments for sessions_send: missing required argument "message"',
    );
    expect((await registry.call(open, 'sessions_send', { message: 'x', timeoutSeconds: -1 }, ctx)).error).toContain(
      'argument "timeoutSeconds" must be >= 0',
    );
    expect(await registry.call(open, 'sessions_send', { message: 'x' }, ctx)).toEqual({
      status: 'error',
      error: 'one of sessionKey, label or agentId is required',
    });
    expect(await registry.call(open, 'sessions_send', { message: 'x', sessionKey: 'agent:expert:main:thread:1' }, ctx)).toMatchObject({
      status: 'error',
    });
    expect(await registry.call(open, 'sessions_send', { message: 'x', sessionKey: 'nonsense' }, ctx)).toEqual({
      status: 'error',
      error: '"nonsense" is not a session key (expected agent:<agentId>:<rest>)',
    });
    expect(await registry.call(open, 'sessions_send', { message: 'x', label: 'nobody' }, ctx)).toEqual({
      status: 'not_found',
      error: 'no session labelled "nobody" in agent support',
    });
  });

  it('POST /admin/sessions/:key/send and /spawn act as the session and return exactly the tool result', async () => {
    const key = encodeURIComponent('agent:support:main');
    const ok = await request(gw.url).post(`/admin/sessions/${key}/send`).send({ agentId: 'expert', message: 'ping' }).expect(200);
    expect(ok.body).toEqual({ status: 'ok', runId: expect.any(String), sessionKey: 'agent:expert:main', reply: '[expert] ping' });
    const spawned = await request(gw.url).post(`/admin/sessions/${key}/spawn`).send({ task: 'tidy up', label: 'tidy' }).expect(200);
    expect(spawned.body).toEqual({
      status: 'accepted',
      runId: expect.any(String),
      childSessionKey: expect.stringMatching(/^agent:support:subagent:/),
    });
    const boxed = await request(gw.url)
      .post(`/admin/sessions/${encodeURIComponent('agent:boxed:main')}/send`)
      .send({ agentId: 'support', message: 'x' })
      .expect(200);
    expect(boxed.body).toEqual({
      status: 'forbidden',
      error: 'Session is not visible from this session (tools.sessions.visibility=tree).',
    });

    const bad = await request(gw.url).post(`/admin/sessions/${key}/send`).send({ agentId: 'expert', message: 'x', extra: 1 }).expect(400);
    expect(bad.headers['content-type']).toContain('application/problem+json');
    expect(bad.body.detail).toBe('invalid sessions_send arguments: unknown argument "extra"');
    await request(gw.url).post(`/admin/sessions/${key}/spawn`).send({}).expect(400);
    await request(gw.url).post('/admin/sessions/not-a-key/send').send({ message: 'x', agentId: 'expert' }).expect(400);
    await request(gw.url)
      .post(`/admin/sessions/${encodeURIComponent('agent:ghost:main')}/send`)
      .send({ message: 'x', agentId: 'expert' })
      .expect(404);
  });
});
