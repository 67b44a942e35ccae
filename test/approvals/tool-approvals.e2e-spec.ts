import request from 'supertest';
import { a2aRpc } from '../support/a2a-rpc';
import { agentBrain } from '../support/agent-brain';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

/**
 * Tool approvals (docs/approvals.md): a call of a tool the agent's `tools.requiresApproval` names pauses its run; the
 * A2A task shows INPUT_REQUIRED with what waits; an operator approves (the tool runs, the task completes) or denies
 * (the model is told, with the note); no decision in time is a denial; a peer's message to the waiting task is refused.
 */
const HERMES = 'hermes-token-approvals-5e2a';
const IRIS = 'iris-token-approvals-9c4d';

interface WireTask {
  id: string;
  status: { state: string; message?: { parts: Array<{ text: string }>; metadata?: Record<string, { id: string; tool: string }> } };
  artifacts?: Array<{ parts: Array<{ text: string }> }>;
}

describe('tool approvals (e2e)', () => {
  let model: FakeOpenAiServer;
  let gw: TestGateway;
  const rpc = (method: string, params: unknown, token = HERMES) => a2aRpc(gw.url, token, method, params);
  const send = async (text: string, token = HERMES): Promise<WireTask> => {
    const res = await rpc(
      'SendMessage',
      { message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }] }, configuration: { returnImmediately: true } },
      token,
    );
    return (res.result as { task: WireTask }).task;
  };
  const getTask = async (id: string, token = HERMES): Promise<WireTask> => (await rpc('GetTask', { id }, token)).result as WireTask;
  const reply = (task: WireTask) => task.artifacts?.[0]?.parts.map((p) => p.text).join('') ?? '';
  const settled = (id: string, token = HERMES) =>
    waitFor(
      `task ${id} to complete`,
      async () => {
        const task = await getTask(id, token);
        return task.status.state === 'TASK_STATE_COMPLETED' && task;
      },
      15_000,
    );
  const awaiting = (id: string, token = HERMES) =>
    waitFor(
      `task ${id} to wait for approval`,
      async () => {
        const task = await getTask(id, token);
        return task.status.state === 'TASK_STATE_INPUT_REQUIRED' && task;
      },
      15_000,
    );
  const pending = async () =>
    (await request(gw.url).get('/admin/approvals?state=pending').expect(200)).body.items as Array<Record<string, unknown>>;

  beforeAll(async () => {
    model = await new FakeOpenAiServer().start();
    model.always(
      agentBrain(model, ({ message, toolResult }) => {
        if (toolResult)
          return {
            text: `after the call: ${String(toolResult.status)} ${typeof toolResult.error === 'string' ? toolResult.error : ''}`.trim(),
          };
        if (message.includes('status')) return { tool: 'session_status', args: {} };
        return { text: `plain: ${message}` };
      }),
    );
    gw = await startTestGateway(`{
      models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
      agents: {
        defaults: { tools: { requiresApproval: ["session_status"] } },
        list: [
          { id: "main", default: true, model: "fake/brain" },
          { id: "quick", model: "fake/brain", tools: { approvalTimeoutMs: 1000 } },
        ],
      },
      bindings: [{ agentId: "quick", match: { channel: "a2a", peer: { kind: "direct", id: "iris" } } }],
      channels: { a2a: { enabled: true, rateLimitPerMinute: 0,
        peers: { hermes: { token: "${HERMES}" }, iris: { token: "${IRIS}" } } } },
    }`);
  });

  afterAll(async () => {
    await gw?.stop();
    await model?.close();
  });

  it('pauses the task at INPUT_REQUIRED, and an approval lets the tool run and the task complete', async () => {
    const task = await send('what is my status?');
    const waiting = await awaiting(task.id);
    const said = waiting.status.message!;
    expect(said.parts[0].text).toMatch(/Waiting for an operator to approve a call of session_status/);
    const meta = said.metadata!['clawgate/approval'];
    expect(meta.tool).toBe('session_status');

    const [listed] = await pending();
    expect(listed).toMatchObject({
      id: meta.id,
      state: 'pending',
      agentId: 'main',
      tool: 'session_status',
      channel: 'a2a',
      caller: 'hermes',
      taskId: task.id,
    });
    // The tool has not run: the model has been asked once.
    const asked = model.requests.length;

    const approved = await request(gw.url).post(`/admin/approvals/${meta.id}/approve`).send({ note: 'fine' }).expect(200);
    expect(approved.body).toMatchObject({ id: meta.id, state: 'approved', decidedBy: 'loopback', note: 'fine' });
    const done = await settled(task.id);
    expect(reply(done)).toBe('after the call: ok');
    expect(model.requests.length).toBe(asked + 1);
    // Decided once: a second decision is a conflict naming the first.
    const again = await request(gw.url).post(`/admin/approvals/${meta.id}/deny`).send({}).expect(409);
    expect(again.body.detail).toMatch(/already approved \(by loopback/);
  });

  it('a denial reaches the model with the note, and the tool is not called', async () => {
    const task = await send('status please');
    const waiting = await awaiting(task.id);
    const { id } = waiting.status.message!.metadata!['clawgate/approval'];
    await request(gw.url).post(`/admin/approvals/${id}/deny`).send({ note: 'not today' }).expect(200);
    const done = await settled(task.id);
    expect(reply(done)).toBe(`after the call: forbidden the operator denied this call of session_status (approval ${id}): not today`);
    const audit = (await request(gw.url).get('/admin/audit?limit=50').expect(200)).body;
    const entries = JSON.stringify(audit);
    expect(entries).toContain(`/admin/approvals/${id}/deny`);
  });

  it('no decision within tools.approvalTimeoutMs is a denial', async () => {
    const task = await send('status, quickly', IRIS);
    const waiting = await awaiting(task.id, IRIS);
    const { id } = waiting.status.message!.metadata!['clawgate/approval'];
    const done = await settled(task.id, IRIS);
    expect(reply(done)).toBe(
      `after the call: forbidden no operator approved this call of session_status in time (approval ${id}, expired); it was not made`,
    );
    const record = (await request(gw.url).get(`/admin/approvals/${id}`).expect(200)).body;
    expect(record).toMatchObject({ state: 'expired', decidedBy: 'timeout', agentId: 'quick' });
  });

  it("refuses a peer's message to a task that waits for an operator, and a cancel withdraws the request", async () => {
    const task = await send('my status?');
    const waiting = await awaiting(task.id);
    const { id } = waiting.status.message!.metadata!['clawgate/approval'];
    const answer = await rpc('SendMessage', {
      message: { messageId: 'ans-1', role: 'ROLE_USER', taskId: task.id, parts: [{ text: 'go ahead' }] },
    });
    expect(answer.error!.message).toMatch(/waits for an operator's approval of session_status/);
    const canceled = await rpc('CancelTask', { id: task.id });
    expect(canceled.result.status.state).toBe('TASK_STATE_CANCELED');
    const record = (await request(gw.url).get(`/admin/approvals/${id}`).expect(200)).body;
    expect(record).toMatchObject({ state: 'withdrawn', decidedBy: 'run' });
  });

  it('counts requests and how each ended in /metrics', async () => {
    const metrics = (await request(gw.url).get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/^clawgate_tool_approvals_total\{outcome="requested"\} 4$/m);
    for (const outcome of ['approved', 'denied', 'expired', 'withdrawn']) {
      expect(metrics).toMatch(new RegExp(`^clawgate_tool_approvals_total\\{outcome="${outcome}"\\} 1$`, 'm'));
    }
  });

  it('answers bad decisions and queries with what was wrong', async () => {
    await request(gw.url).post('/admin/approvals/no-such-id/approve').send({}).expect(404);
    const extra = await request(gw.url).post('/admin/approvals/x/approve').send({ note: 'a', who: 'me' }).expect(400);
    expect(extra.body.detail).toMatch(/unknown field "who"/);
    const badNote = await request(gw.url).post('/admin/approvals/x/deny').send({ note: 5 }).expect(400);
    expect(badNote.body.detail).toMatch(/note must be a string/);
    const badState = await request(gw.url).get('/admin/approvals?state=maybe').expect(400);
    expect(badState.body.detail).toMatch(/state must be one of pending, approved/);
    const badLimit = await request(gw.url).get('/admin/approvals?limit=0').expect(400);
    expect(badLimit.body.detail).toMatch(/limit must be an integer from 1 to 1000/);
  });
});
