import { TaskState } from '@a2a-js/sdk';
import request from 'supertest';
import { AgentRunner } from '../../src/modules/runtime/agent-runner.service';
import { SESSION_STORE, SessionStore } from '../../src/modules/sessions/session-store.port';
import { a2aRpc } from '../support/a2a-rpc';
import { fetchWithToken, sdkClient, sendTask } from '../support/a2a-sdk';
import { agentBrain } from '../support/agent-brain';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { API_CLIENT } from '../support/admin-client';

/**
 * The cancel cascade over two real gateways: agent `a` on the first gateway starts work elsewhere — an outbound A2A
 * task at the second gateway (whose agent's model stalls), and a sessions_send or sessions_spawn run in agent `b`
 * (whose model stalls too). Cancelling a's A2A task (or a's run through the admin API) aborts b's run, its model
 * connection closed, and CancelTasks the peer's task; only then is a's task CANCELED.
 */
// The SDK's CommonJS build loads jose (ESM-only) for card signatures, which jest cannot require; unused here.
jest.mock('jose', () => ({}));

const HERMES = 'hermes-token-0123456789abcdef';
const GW1_AT_GW2 = 'gw1-presents-to-gw2-5e6f7a8b';
const GW2_AT_GW1 = 'gw2-presents-to-gw1-1a2b3c4d';

describe('cancel cascade (e2e, two gateways)', () => {
  let brainA: FakeOpenAiServer;
  let slowB: FakeOpenAiServer;
  let slowRemote: FakeOpenAiServer;
  let gw1: TestGateway;
  let gw2: TestGateway;
  let sessions: SessionStore;

  beforeAll(async () => {
    [brainA, slowB, slowRemote] = await Promise.all([1, 2, 3].map(() => new FakeOpenAiServer().start()));
    brainA.always(
      agentBrain(brainA, ({ message, toolResult }) => {
        if (message.includes('delegate')) {
          if (!toolResult) return { tool: 'a2a_send', args: { peer: 'p2', text: 'the remote half' } };
          if (toolResult.peer === 'p2')
            return { tool: 'sessions_send', args: { agentId: 'b', message: 'the local half', timeoutSeconds: 60 } };
        }
        if (message.includes('spawn')) {
          if (!toolResult) return { tool: 'sessions_spawn', args: { agentId: 'b', task: 'background half' } };
          if (toolResult.childSessionKey) return { tool: 'a2a_send', args: { peer: 'p2', text: 'the remote half', wait: true } };
        }
        return { text: `done: ${JSON.stringify(toolResult ?? {})}` };
      }),
    );
    slowB.always(slowB.stall());
    slowRemote.always(slowRemote.stall());
    gw2 = await startTestGateway(`{
      models: { providers: { slow: { api: "openai-chat", baseUrl: "${slowRemote.baseUrl}" } } },
      agents: { list: [{ id: "remote", default: true, model: "slow/model" }] },
      channels: { a2a: { enabled: true, peers: { gw1: { token: "${GW1_AT_GW2}" } } } },
    }`);
    gw1 = await startTestGateway(`{
      models: { providers: {
        brain: { api: "openai-chat", baseUrl: "${brainA.baseUrl}" },
        slow: { api: "openai-chat", baseUrl: "${slowB.baseUrl}" },
      } },
      agents: { list: [{ id: "a", default: true, model: "brain/a" }, { id: "b", model: "slow/b" }] },
      tools: { agentToAgent: { enabled: true }, sessions: { visibility: "all" } },
      session: { agentToAgent: { maxPingPongTurns: 0 } },
      channels: { a2a: { enabled: true, peers: {
        hermes: { token: "${HERMES}" },
        p2: { token: "${GW2_AT_GW1}", url: "${gw2.url}/a2a/v1", outboundToken: "${GW1_AT_GW2}" },
      } } },
    }`);
    sessions = gw1.app.get(SESSION_STORE);
  });
  afterAll(async () => {
    await gw1?.stop();
    await gw2?.stop();
    await Promise.all([brainA, slowB, slowRemote].map((m) => m?.close()));
  });

  /** The peer's tasks that the first gateway sent (as the second gateway sees them). */
  const remoteTasks = async () =>
    (await a2aRpc(gw2.url, GW1_AT_GW2, 'ListTasks', {})).result.tasks as Array<{ id: string; status: { state: string } }>;

  it('CancelTask of a’s task aborts b’s sessions_send run and cancels the outbound task at the peer, then answers CANCELED', async () => {
    const remoteBefore = slowRemote.requests.length;
    const bBefore = slowB.requests.length;
    // The calling peer is the @a2a-js/sdk client over the HTTP+JSON binding.
    const client = await sdkClient(gw1.url, fetchWithToken(HERMES), 'HTTP+JSON');
    const started = await sendTask(client, 'please delegate this', { returnImmediately: true });
    // a's run waits on sessions_send to b, while the peer's agent works on the outbound task: both models stall.
    await waitFor('b’s model request', async () => slowB.requests.length > bBefore, 10_000);
    await waitFor('the peer’s model request', async () => slowRemote.requests.length > remoteBefore, 10_000);
    const [remote] = await remoteTasks();
    expect(remote.status.state).toBe('TASK_STATE_WORKING');
    const bAborts = slowB.clientAborts;
    const remoteAborts = slowRemote.clientAborts;

    const canceled = await client.cancelTask({ tenant: '', id: started.id, metadata: undefined });
    expect(canceled).toMatchObject({ id: started.id, status: { state: TaskState.TASK_STATE_CANCELED } });
    // By the time a's task is CANCELED the peer has already canceled its task (our CancelTask was answered).
    expect((await a2aRpc(gw2.url, GW1_AT_GW2, 'GetTask', { id: remote.id })).result.status.state).toBe('TASK_STATE_CANCELED');
    await waitFor('b’s model connection to close', async () => slowB.clientAborts > bAborts, 2000);
    await waitFor('the peer’s model connection to close', async () => slowRemote.clientAborts > remoteAborts, 2000);

    // b's run ended aborted, saying why; a's transcript records the cancel at the peer, not a result.
    const bLines = (await sessions.history('agent:b:main', { includeTools: true })).lines;
    expect(bLines.at(-1)).toMatchObject({ role: 'system', text: 'run aborted: the run that sent this message was aborted' });
    const aKey = `agent:a:a2a:default:direct:hermes:${started.contextId}`;
    const aLines = (await sessions.history(aKey, { includeTools: true })).lines;
    expect(aLines.find((l) => (l.meta?.a2a_outbound as { status?: string })?.status === 'canceled')).toMatchObject({
      text: `a2a_send to a2a:p2: task ${remote.id} canceled at the peer: the run that sent it was aborted`,
    });
    expect(aLines.at(-1)).toMatchObject({ role: 'system', text: 'run aborted: Task canceled by the peer' });
  });

  it('POST /admin/runs/:runId/cancel aborts a run, its spawned child and its awaited outbound task (404 unknown, 400 over)', async () => {
    const runner = gw1.app.get(AgentRunner);
    const bBefore = slowB.requests.length;
    const remoteCount = (await remoteTasks()).length;
    const run = runner.startRun({ sessionKey: 'agent:a:main', message: 'spawn a helper, then ask the peer' });
    await waitFor('the spawned run’s model request', async () => slowB.requests.length > bBefore, 10_000);
    await waitFor('the outbound task', async () => (await remoteTasks()).length > remoteCount, 10_000);
    const remote = (await remoteTasks())[0];
    const childKey = (await sessions.page({ agentId: 'b', limit: 10 })).sessions.find((s) => s.spawnedBy === 'agent:a:main')?.sessionKey;
    expect(childKey).toMatch(/^agent:b:subagent:/);

    const res = await request(gw1.url).post(`/admin/runs/${run.runId}/cancel`).set(API_CLIENT).expect(200);
    expect(res.body).toMatchObject({
      runId: run.runId,
      status: 'aborted',
      error: 'Run canceled by the gateway operator',
      abortedBy: 'cancel',
    });
    expect((await a2aRpc(gw2.url, GW1_AT_GW2, 'GetTask', { id: remote.id })).result.status.state).toBe('TASK_STATE_CANCELED');
    const childLines = (await sessions.history(childKey as string)).lines;
    expect(childLines.at(-1)).toMatchObject({ role: 'system', text: 'run aborted: the run that spawned this session was aborted' });

    const again = await request(gw1.url).post(`/admin/runs/${run.runId}/cancel`).set(API_CLIENT);
    expect(again.status).toBe(400);
    expect(again.headers['content-type']).toContain('application/problem+json');
    expect(again.body.detail).toBe(`run ${run.runId} is already over (aborted)`);
    const unknown = await request(gw1.url).post('/admin/runs/no-such-run/cancel').set(API_CLIENT);
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toContain('no run with id "no-such-run"');
    // The process is still serving.
    expect((await request(gw1.url).get('/healthz')).status).toBe(200);
  });
});
