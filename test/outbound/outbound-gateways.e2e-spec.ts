import request from 'supertest';
import { AgentRunner } from '../../src/modules/runtime/agent-runner.service';
import { ToolRegistry } from '../../src/modules/runtime/tool-registry';
import { SESSION_STORE, SessionStore, TranscriptLine } from '../../src/modules/sessions/session-store.port';
import { agentBrain } from '../support/agent-brain';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

/**
 * Two real gateways peered over A2A on loopback. A (agent alice on a scripted OpenAI-compatible model)
 * calls `a2a_send` to B (agent bob on the echo model); B answers from its isolated per-peer session and the
 * reply lands back in A's transcript. Then the same through A's admin endpoint, and B → A after a hot reload.
 */
const A_TO_B = 'token-a-presents-to-b-7f3e';
const B_TO_A = 'token-b-presents-to-a-2c9d';
const OPERATOR = 'outbound-operator-token-5a1b';
const VIEWER = 'outbound-viewer-token-8c2d';

const configB = (aUrl?: string) => `{
  agents: { list: [{ id: "bob", model: "echo/default" }] },
  channels: { a2a: { enabled: true, peers: {
    a: { token: "\${A_TO_B}"${aUrl ? `, url: "${aUrl}", outboundToken: "\${B_TO_A}"` : ''} },
  } } },
}`;

const configA = (modelUrl: string, bUrl: string) => `{
  gateway: { admin: { tokens: [
    { name: "ops", token: "${OPERATOR}", role: "operator" },
    { name: "watcher", token: "${VIEWER}", role: "viewer" },
  ] } },
  models: { providers: { scripted: { api: "openai-chat", baseUrl: "${modelUrl}", apiKey: "sk-scripted" } } },
  agents: { list: [{ id: "alice", model: "scripted/brain" }] },
  channels: { a2a: { enabled: true, peers: {
    b: { token: "\${B_TO_A}", url: "${bUrl}", outboundToken: "\${A_TO_B}" },
  } } },
}`;

describe('outbound A2A between two gateways (e2e)', () => {
  let model: FakeOpenAiServer;
  let a: TestGateway;
  let b: TestGateway;
  let storeA: SessionStore;
  let storeB: SessionStore;
  const env = { A_TO_B, B_TO_A };
  const B_PEER_SESSION = 'agent:bob:a2a:default:direct:a:ctx-oc-b';

  beforeAll(async () => {
    model = await new FakeOpenAiServer().start();
    model.always(
      agentBrain(model, ({ message, toolResult }) => {
        if (toolResult) return { text: `B said: ${String(toolResult.reply)}` };
        if (message.includes('please ask b')) return { tool: 'a2a_send', args: { peer: 'b', text: 'hello from alice', wait: true } };
        return { text: `alice got: ${message}` };
      }),
    );
    b = await startTestGateway(configB(), { env });
    a = await startTestGateway(configA(model.baseUrl, `${b.url}/a2a/v1`), { env });
    storeA = a.app.get(SESSION_STORE);
    storeB = b.app.get(SESSION_STORE);
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await model?.close();
  });

  const outboundLines = (lines: TranscriptLine[]) => lines.filter((l) => l.meta?.a2a_outbound);

  it('an agent on A calls a2a_send(wait) → B answers in its per-peer session → the reply is in A’s transcript', async () => {
    const runner = a.app.get(AgentRunner);
    const { runId } = runner.startRun({ sessionKey: 'agent:alice:main', message: 'please ask b how it is going' });
    const run = await runner.waitForRun(runId, 15_000);
    expect(run).toMatchObject({ status: 'completed', reply: 'B said: [bob] hello from alice' });

    // B ran the task in the session of (peer a, ctx-oc-b), never in its main session.
    const peerSession = await storeB.history(B_PEER_SESSION);
    expect(peerSession.lines.map((l) => [l.role, l.text])).toEqual([
      ['user', 'hello from alice'],
      ['assistant', '[bob] hello from alice'],
    ]);
    expect(await storeB.get('agent:bob:main')).toBeUndefined();

    // A recorded the outcome in the sending session, with provenance from a2a:b.
    const { lines } = await storeA.history('agent:alice:main');
    const [record] = outboundLines(lines);
    expect(record).toMatchObject({
      role: 'system',
      runId,
      provenance: { kind: 'inter_session', sourceSessionKey: 'a2a:b', sourceChannel: 'a2a', sourceTool: 'a2a_send' },
      meta: {
        a2a_outbound: { peer: 'b', target: 'a2a:b', taskId: expect.any(String), state: 'TASK_STATE_COMPLETED', status: 'ok', via: 'tool' },
      },
    });
    expect(record.text).toContain('sent: hello from alice');
    expect(record.text).toContain('reply: [bob] hello from alice');
    // The model got the reply as the tool result.
    expect(JSON.parse(model.lastToolResult() ?? '{}')).toMatchObject({ status: 'ok', peer: 'b', reply: '[bob] hello from alice' });
  });

  it('a2a_send obeys the agent’s tools.deny (the registry filters it)', async () => {
    const registry = a.app.get(ToolRegistry);
    const ctx = { sessionKey: 'agent:alice:main', agentId: 'alice', signal: new AbortController().signal };
    const denied = await registry.call({ tools: { allow: [], deny: ['a2a_send'] } }, 'a2a_send', { peer: 'b', text: 'x' }, ctx);
    expect(denied).toMatchObject({ status: 'error', error: expect.stringContaining('unknown tool "a2a_send"') });
    const strict = await registry.call({ tools: { allow: [], deny: [] } }, 'a2a_send', { peer: 'b', text: 'x', url: 'http://evil' }, ctx);
    expect(strict).toMatchObject({ status: 'error', error: expect.stringContaining('unknown argument "url"') });
  });

  it('the admin endpoint sends as operator, waits, and records in agent:<default>:a2a-outbound', async () => {
    const send = (token: string | undefined, body: unknown, peer = 'b') => {
      const req = request(a.url).post(`/admin/a2a/peers/${peer}/send`);
      return (token ? req.set('Authorization', `Bearer ${token}`) : req).send(body as object);
    };
    expect((await send(undefined, { text: 'hi' })).status).toBe(401);
    expect((await send(VIEWER, { text: 'hi' })).status).toBe(403);
    expect((await send(OPERATOR, { text: 'hi', url: 'http://elsewhere' })).status).toBe(400);
    expect((await send(OPERATOR, { text: '   ' })).status).toBe(400);
    const unknown = await send(OPERATOR, { text: 'hi' }, 'nobody');
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe('no A2A peer "nobody" is configured (channels.a2a.peers; peers with a url: b)');

    const res = await send(OPERATOR, { text: 'status report please', wait: true }).expect(200);
    expect(res.body).toEqual({
      status: 'ok',
      taskId: expect.any(String),
      state: 'TASK_STATE_COMPLETED',
      reply: '[bob] status report please',
    });

    const accepted = await send(OPERATOR, { text: 'no need to wait' }).expect(200);
    expect(accepted.body).toEqual({
      status: 'accepted',
      taskId: expect.any(String),
      state: expect.stringMatching(/SUBMITTED|WORKING|COMPLETED/),
    });

    const { lines } = await storeA.history('agent:alice:a2a-outbound');
    // B's card says it streams: the send that waits streams (the reply arrives as soon as it exists); the other one
    // does not wait for anything and is a plain SendMessage.
    expect(outboundLines(lines).map((l) => l.meta?.a2a_outbound)).toEqual([
      expect.objectContaining({
        peer: 'b',
        taskId: res.body.taskId,
        state: 'TASK_STATE_COMPLETED',
        via: 'admin',
        method: 'SendStreamingMessage',
      }),
      expect.objectContaining({ peer: 'b', taskId: accepted.body.taskId, via: 'admin', method: 'SendMessage' }),
    ]);
    // B keeps every message from A in the same per-peer conversation.
    await waitFor('B to answer the fire-and-forget task', async () => {
      const { lines: bLines } = await storeB.history(B_PEER_SESSION);
      return bLines.some((l) => l.text === '[bob] no need to wait');
    });
  });

  it('B reaches A once a hot reload gives B’s peer a url (peered both ways)', async () => {
    const before = await request(b.url).post('/admin/a2a/peers/a/send').send({ text: 'hi' });
    expect(before.status).toBe(409);
    expect(before.body.detail).toBe('peer a has no url configured for outbound A2A');

    await b.writeConfig(configB(`${a.url}/a2a/v1`));
    const res = await waitFor(
      'B to pick up the url of peer a',
      async () => {
        const r = await request(b.url).post('/admin/a2a/peers/a/send').send({ text: 'hello alice', wait: true });
        return r.status === 200 ? r : undefined;
      },
      10_000,
    );
    expect(res.body).toMatchObject({ status: 'ok', state: 'TASK_STATE_COMPLETED', reply: 'alice got: hello alice' });
    const aPeerSession = await storeA.history('agent:alice:a2a:default:direct:b:ctx-oc-a');
    expect(aPeerSession.lines.map((l) => l.text)).toEqual(['hello alice', 'alice got: hello alice']);
  });
});
