import { TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import request from 'supertest';
import { a2aRpc, userMessage } from '../support/a2a-rpc';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { fetchWithToken, sdkClient, sendTask } from '../support/a2a-sdk';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { API_CLIENT } from '../support/admin-client';

// The SDK's CommonJS build loads jose (ESM-only) for card signatures, which jest cannot require; unused here.
jest.mock('jose', () => ({}));

/**
 * CancelTask of a running task: the run is aborted — its model request is closed on the wire — and only then is
 * the task CANCELED; the blocked SendMessage caller and GetTask see the same; a finished task is -32002.
 */
const HERMES = 'hermes-token-0123456789abcdef';
const IRIS = 'iris-token-fedcba9876543210';

describe('A2A CancelTask (e2e)', () => {
  let gw: TestGateway;
  let model: FakeOpenAiServer;
  const rpc = (token: string, method: string, params: unknown) => a2aRpc(gw.url, token, method, params);
  const message = (text: string) => userMessage(text);

  beforeAll(async () => {
    model = await new FakeOpenAiServer().start();
    model.always(model.stall());
    gw = await startTestGateway(`{
      models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
      agents: { list: [{ id: "main", default: true, model: "fake/slow" }] },
      channels: { a2a: { enabled: true, peers: { hermes: { token: "${HERMES}" }, iris: { token: "${IRIS}" } } } },
    }`);
  });
  afterAll(async () => {
    await gw?.stop();
    await model?.close();
  });

  it('stops the run, closes its model request, and answers CANCELED once it has stopped', async () => {
    const started = (await rpc(HERMES, 'SendMessage', { ...message('think for a long time'), configuration: { returnImmediately: true } }))
      .result.task;
    expect(started.status.state).toBe('TASK_STATE_WORKING');
    await waitFor('the run to reach the model', async () => model.requests.length >= 1);
    const abortsBefore = model.clientAborts;

    // Another peer cannot cancel it: the same -32001 as for an unknown id.
    expect((await rpc(IRIS, 'CancelTask', { id: started.id })).error?.code).toBe(-32001);

    const canceled = (await rpc(HERMES, 'CancelTask', { id: started.id })).result;
    expect(canceled).toMatchObject({ id: started.id, status: { state: 'TASK_STATE_CANCELED' } });
    expect(canceled.status.message.parts[0].text).toBe('Task canceled by the peer');
    await waitFor('the model request to be closed', async () => model.clientAborts > abortsBefore, 2000);
    expect((await rpc(HERMES, 'GetTask', { id: started.id })).result.status.state).toBe('TASK_STATE_CANCELED');
    // Over now: a second cancel is -32002.
    const again = await rpc(HERMES, 'CancelTask', { id: started.id });
    expect(again.error).toMatchObject({ code: -32002, data: [expect.objectContaining({ reason: 'TASK_NOT_CANCELABLE' })] });
  });

  it('answers a blocked SendMessage caller with CANCELED', async () => {
    const blocked = rpc(HERMES, 'SendMessage', message('wait for me'));
    await waitFor('the second run to reach the model', async () => model.requests.length >= 2);
    // A blocking task gets its row once it has run for a moment (docs/a2a.md#task-store); until then only its caller knows it.
    const listed = await waitFor('the blocked task to be listed', async () => {
      const tasks = (await rpc(HERMES, 'ListTasks', { status: 'TASK_STATE_WORKING' })).result.tasks as Array<{ id: string }>;
      return tasks.length ? tasks : undefined;
    });
    expect(listed).toHaveLength(1);
    await rpc(HERMES, 'CancelTask', { id: listed[0].id });
    expect((await blocked).result.task).toMatchObject({ id: listed[0].id, status: { state: 'TASK_STATE_CANCELED' } });
  });

  it('lets the operator cancel any peer’s running task through the admin API (404 unknown, 400 already over)', async () => {
    const started = (await rpc(IRIS, 'SendMessage', { ...message('operator will stop this'), configuration: { returnImmediately: true } }))
      .result.task;
    await waitFor('the third run to reach the model', async () => model.requests.length >= 3);
    const res = await request(gw.url).post(`/admin/a2a/tasks/${started.id}/cancel`).set(API_CLIENT).expect(200);
    expect(res.body).toMatchObject({
      id: started.id,
      peer: 'iris',
      state: 'TASK_STATE_CANCELED',
      statusMessage: { text: 'Task canceled by the gateway operator' },
    });
    const again = await request(gw.url).post(`/admin/a2a/tasks/${started.id}/cancel`).set(API_CLIENT);
    expect(again.status).toBe(400);
    expect(again.headers['content-type']).toContain('application/problem+json');
    expect(again.body.detail).toContain('already over');
    const unknown = await request(gw.url).post('/admin/a2a/tasks/no-such-task/cancel').set(API_CLIENT);
    expect(unknown.status).toBe(404);
  });
});

describe('A2A CancelTask with the @a2a-js/sdk client (e2e)', () => {
  const TOKEN = 'zeus-token-5e1f0c9a7b3d2468';
  let gw: TestGateway;
  let model: FakeOpenAiServer;
  let client: Client;
  beforeAll(async () => {
    model = await new FakeOpenAiServer().start();
    // The model's answer has begun and trickles on: the cancel must close a response that is being read.
    model.always(model.slowStream());
    gw = await startTestGateway(`{
      models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
      agents: { list: [{ id: "main", default: true, model: "fake/slow" }] },
      channels: { a2a: { enabled: true, peers: { zeus: { token: "${TOKEN}" } } } },
    }`);
    client = await sdkClient(gw.url, fetchWithToken(TOKEN), 'JSONRPC');
  });
  afterAll(async () => {
    await gw?.stop();
    await model?.close();
  });

  it('cancels a task whose model is streaming slowly: CANCELED, and the model connection closed within 1 s', async () => {
    const started = await sendTask(client, 'stream for a long time', { returnImmediately: true });
    expect(started.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    await waitFor('the run to reach the model', async () => model.requests.length >= 1);
    const abortsBefore = model.clientAborts;
    const canceled = await client.cancelTask({ tenant: '', id: started.id, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    // The answer comes only once the run has stopped, so the connection is already closing: 1 s is the bound.
    await waitFor('the model connection to be closed', async () => model.clientAborts > abortsBefore, 1000);
    expect((await client.getTask({ tenant: '', id: started.id, historyLength: undefined })).status?.state).toBe(
      TaskState.TASK_STATE_CANCELED,
    );
  });
});
