import { createHash } from 'node:crypto';
import request from 'supertest';
import { a2aRpc, userMessage } from '../support/a2a-rpc';
import { hostJose } from '../support/admin-jose';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { PushReceiver } from '../support/push-receiver';

/**
 * A2A push notifications: a peer registers a push config for its task — only at a URL its operator allowed
 * (`channels.a2a.peers.<name>.pushUrls`) — and every event of the task is POSTed there from a durable outbox, with the
 * config's authentication and token and a signature verifiable with the gateway's published key; a receiver that fails
 * is retried with backoff. A real gateway, real receivers on loopback, a fake OpenAI-compatible model.
 */
const HERMES = 'hermes-token-0123456789abcdef';
const IRIS = 'iris-token-fedcba9876543210';

describe('A2A push notifications (e2e)', () => {
  let gw: TestGateway;
  let model: FakeOpenAiServer;
  let allowed: PushReceiver;
  let elsewhere: PushReceiver;
  let release: () => void = () => undefined;
  const rpc = (token: string, method: string, params: unknown) => a2aRpc(gw.url, token, method, params);
  const jose = hostJose();

  /** A task whose model answer (`text`, streamed word by word unless `step` says otherwise) waits for release(); WORKING until then. */
  const heldTask = async (text = 'the answer', step = model.text(text)): Promise<string> => {
    const gate = new Promise<void>((resolve) => (release = resolve));
    model.script(model.held(gate, step));
    const before = model.requests.length;
    const task = (await rpc(HERMES, 'SendMessage', { ...userMessage('report please'), configuration: { returnImmediately: true } })).result
      .task;
    await waitFor('the run to reach the model', async () => model.requests.length > before);
    return task.id as string;
  };

  const register = (taskId: string, extra: Record<string, unknown> = {}, token = HERMES) =>
    rpc(token, 'CreateTaskPushNotificationConfig', {
      taskId,
      url: `${allowed.origin}/hooks/${taskId}`,
      token: 'notification-token-1',
      authentication: { scheme: 'Bearer', credentials: 'receiver-credential-1' },
      ...extra,
    });

  const deliveries = async () => (await request(gw.url).get('/admin/a2a/push?limit=500').expect(200)).body;

  beforeAll(async () => {
    model = await new FakeOpenAiServer().start();
    model.always(model.text('the default answer'));
    allowed = await new PushReceiver().start();
    elsewhere = await new PushReceiver().start();
    gw = await startTestGateway(`{
      models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
      agents: { list: [{ id: "main", default: true, model: "fake/m" }] },
      channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: {
        hermes: { token: "${HERMES}", pushUrls: ["${allowed.origin}/hooks/*"] },
        iris: { token: "${IRIS}" },
      } } },
    }`);
  });
  afterAll(async () => {
    release();
    await gw?.stop();
    await Promise.all([model?.close(), allowed?.close(), elsewhere?.close()]);
  });

  it('the card claims push; a config is kept without its credentials and every event is POSTed, signed', async () => {
    const card = (await request(gw.url).get('/.well-known/agent-card.json').expect(200)).body;
    expect(card.capabilities.pushNotifications).toBe(true);
    const taskId = await heldTask('signed answer');
    const created = await register(taskId, { id: 'cfg-1' });
    expect(created.result).toEqual({
      id: 'cfg-1',
      taskId,
      url: `${allowed.origin}/hooks/${taskId}`,
      token: 'notification-token-1',
      authentication: { scheme: 'Bearer' },
    });
    expect(JSON.stringify(created)).not.toContain('receiver-credential-1');
    expect((await rpc(HERMES, 'GetTaskPushNotificationConfig', { taskId, id: 'cfg-1' })).result).toEqual(created.result);
    expect((await rpc(HERMES, 'ListTaskPushNotificationConfigs', { taskId })).result).toEqual({
      configs: [created.result],
      nextPageToken: '',
    });

    release();
    await waitFor('the completion delivered', async () =>
      allowed.bodiesFor(taskId).some((b) => b.statusUpdate?.status.state === 'TASK_STATE_COMPLETED'),
    );
    const got = allowed.received.filter((r) => r.path === `/hooks/${taskId}`);
    const bodies = got.map((r) => JSON.parse(r.body));
    // The reply as the model streamed it (the task did not block its caller), chunk by chunk, then COMPLETED.
    const chunks = bodies.slice(0, -1).map((b) => b.artifactUpdate);
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(chunks.every((c) => c?.taskId === taskId)).toBe(true);
    expect(chunks.map((c) => c.artifact.parts[0].text).join('')).toBe('signed answer');
    expect(chunks.at(-1).lastChunk).toBe(true);
    expect(bodies.at(-1).statusUpdate).toMatchObject({ taskId, status: { state: 'TASK_STATE_COMPLETED' } });
    const keys = jose.createRemoteJWKSet(new URL(`${gw.url}/.well-known/a2a-push-jwks.json`));
    for (const [i, r] of got.entries()) {
      expect(r.headers.authorization).toBe('Bearer receiver-credential-1');
      expect(r.headers['x-a2a-notification-token']).toBe('notification-token-1');
      expect(r.headers['content-type']).toBe('application/a2a+json');
      expect(r.headers['x-a2a-event-id']).toBe(`${taskId}:${i + 1}`);
      const { payload } = await jose.jwtVerify(String(r.headers['x-a2a-push-signature']), keys, {
        audience: `${allowed.origin}/hooks/${taskId}`,
      });
      expect(payload).toMatchObject({ task_id: taskId, event: i + 1 });
      expect(payload.request_body_sha256).toBe(createHash('sha256').update(r.body).digest('hex'));
    }
    // A body changed on the way no longer matches its signature's hash.
    expect(createHash('sha256').update(`${got[0].body} `).digest('hex')).not.toBe(
      (await jose.jwtVerify(String(got[0].headers['x-a2a-push-signature']), keys)).payload.request_body_sha256,
    );
  });

  it('a receiver that answers 500 twice gets the event on the third try; the operator sees it all', async () => {
    // An answer in one piece (not streamed): one artifact event, then the status.
    const taskId = await heldTask('third time lucky', model.ignoringStream('third time lucky'));
    expect((await register(taskId, { id: 'retry' })).result.id).toBe('retry');
    allowed.answer(500, 500);
    release();
    await waitFor(
      'the completion delivered',
      async () => allowed.bodiesFor(taskId).some((b) => b.statusUpdate?.status.state === 'TASK_STATE_COMPLETED'),
      15_000,
    );
    const attempts = allowed.received.filter((r) => r.path === `/hooks/${taskId}`).map((r) => r.status);
    expect(attempts).toEqual([500, 500, 200, 200]);
    const mine = (await deliveries()).deliveries.filter((d: { taskId: string }) => d.taskId === taskId);
    expect(mine.map((d: { event: number; state: string; attempts: number }) => [d.event, d.state, d.attempts])).toEqual([
      [2, 'delivered', 1],
      [1, 'delivered', 3],
    ]);
    expect(mine[1].lastError).toBeUndefined();
    expect(JSON.stringify(await deliveries())).not.toContain('receiver-credential-1');
  });

  it('refuses what the operator did not allow, before anything is stored or sent', async () => {
    const taskId = await heldTask();
    const before = elsewhere.received.length;
    const refusals: Array<[string, Promise<{ error?: { code: number; message: string } }>, number, RegExp]> = [
      ['another port', register(taskId, { url: `${elsewhere.origin}/hooks/x` }), -32602, /pushUrls/],
      ['cloud metadata', register(taskId, { url: 'http://169.254.169.254/latest/meta-data' }), -32602, /pushUrls/],
      ['credentials in the URL', register(taskId, { url: `http://u:p@${allowed.origin.slice(7)}/hooks/x` }), -32602, /pushUrls/],
      ['no url', rpc(HERMES, 'CreateTaskPushNotificationConfig', { taskId }), -32602, /url is required/],
      [
        'a header-breaking credential',
        register(taskId, { authentication: { scheme: 'Bearer', credentials: 'a\r\nX-Evil: 1' } }),
        -32602,
        /line breaks/,
      ],
      ['a bad scheme', register(taskId, { authentication: { scheme: 'not a scheme' } }), -32602, /scheme/],
      ['a bad id', register(taskId, { id: 'has spaces' }), -32602, /id must match/],
      ['an unknown task', register('no-such-task'), -32001, /Task not found/],
      ["another peer's task", register(taskId, {}, IRIS), -32001, /Task not found/],
    ];
    for (const [name, answer, code, message] of refusals) {
      const { error } = await answer;
      expect([name, error?.code]).toEqual([name, code]);
      expect(error?.message).toMatch(message);
    }
    // A peer without pushUrls: push is off for it, saying where the operator turns it on.
    const irisTask = (await rpc(IRIS, 'SendMessage', { ...userMessage('mine'), configuration: { returnImmediately: true } })).result.task;
    const off = await rpc(IRIS, 'CreateTaskPushNotificationConfig', { taskId: irisTask.id, url: `${allowed.origin}/hooks/iris` });
    expect(off.error).toMatchObject({ code: -32003 });
    expect(off.error?.message).toContain('channels.a2a.peers.iris.pushUrls');
    // SendMessage carrying a config it may not use is refused whole: no task is made.
    const listedBefore = (await rpc(HERMES, 'ListTasks', {})).result.totalSize;
    const send = await rpc(HERMES, 'SendMessage', {
      ...userMessage('with push'),
      configuration: { taskPushNotificationConfig: { url: `${elsewhere.origin}/x` } },
    });
    expect(send.error?.code).toBe(-32602);
    expect((await rpc(HERMES, 'ListTasks', {})).result.totalSize).toBe(listedBefore);
    expect((await rpc(HERMES, 'ListTaskPushNotificationConfigs', { taskId })).result.configs).toEqual([]);
    release();
    await new Promise((r) => setTimeout(r, 300));
    expect(elsewhere.received.length).toBe(before);
  });

  it('JSON-RPC: refuses a token or credential no header can carry (U+2028), naming the field; nothing is kept', async () => {
    const taskId = await heldTask();
    const token = await register(taskId, { id: 'sep', token: 'line\u2028separator' });
    expect(token.error?.code).toBe(-32602);
    expect(token.error?.message).toMatch(/^Invalid params: token must be printable ASCII.*X-A2A-Notification-Token.*U\+2028/);
    const credentials = await register(taskId, { authentication: { scheme: 'Bearer', credentials: 'caf\u00e9' } });
    expect(credentials.error?.code).toBe(-32602);
    expect(credentials.error?.message).toMatch(/authentication\.credentials must be printable ASCII.*Authorization.*U\+00E9/);
    const inline = await rpc(HERMES, 'SendMessage', {
      ...userMessage('with push'),
      configuration: { taskPushNotificationConfig: { url: `${allowed.origin}/hooks/sep`, token: ' padded' } },
    });
    expect(inline.error?.message).toMatch(/configuration\.taskPushNotificationConfig\.token must be printable ASCII.*either end/);
    // Nothing was kept, so nothing is retried for an hour.
    expect((await rpc(HERMES, 'ListTaskPushNotificationConfigs', { taskId })).result.configs).toEqual([]);
    release();
  });

  it('HTTP+JSON: refuses a token no header can carry (U+2028) with 400 INVALID_ARGUMENT naming the field', async () => {
    const taskId = await heldTask();
    const base = `/a2a/v1/tasks/${taskId}/pushNotificationConfigs`;
    const auth = { Authorization: `Bearer ${HERMES}` };
    const refused = await request(gw.url)
      .post(base)
      .set(auth)
      .send({ url: `${allowed.origin}/hooks/rest-sep`, token: 'line\u2028separator' })
      .expect(400);
    expect(refused.body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(refused.body.error.message).toMatch(/token must be printable ASCII.*X-A2A-Notification-Token.*U\+2028/);
    expect((await request(gw.url).get(base).set(auth).expect(200)).body.configs).toEqual([]);
    release();
  });

  it('SendMessage with configuration.taskPushNotificationConfig pushes its task, blocking or not', async () => {
    const answer = await rpc(HERMES, 'SendMessage', {
      ...userMessage('notify me'),
      configuration: { taskPushNotificationConfig: { url: `${allowed.origin}/hooks/inline`, token: 't-inline' } },
    });
    const taskId = answer.result.task.id as string;
    expect(answer.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    await waitFor('the completion pushed', async () =>
      allowed.bodiesFor(taskId).some((b) => b.statusUpdate?.status.state === 'TASK_STATE_COMPLETED'),
    );
    const configs = (await rpc(HERMES, 'ListTaskPushNotificationConfigs', { taskId })).result.configs;
    expect(configs).toEqual([expect.objectContaining({ taskId, url: `${allowed.origin}/hooks/inline`, token: 't-inline' })]);
  });

  it('the HTTP+JSON routes create, read, list and delete configs; a deleted config gets nothing more', async () => {
    const taskId = await heldTask('rest answer');
    const base = `/a2a/v1/tasks/${taskId}/pushNotificationConfigs`;
    const auth = { Authorization: `Bearer ${HERMES}` };
    const created = await request(gw.url)
      .post(base)
      .set(auth)
      .send({ url: `${allowed.origin}/hooks/rest`, id: 'r1' })
      .expect(200);
    expect(created.body).toEqual({ id: 'r1', taskId, url: `${allowed.origin}/hooks/rest` });
    expect((await request(gw.url).get(`${base}/r1`).set(auth).expect(200)).body).toEqual(created.body);
    expect((await request(gw.url).get(base).set(auth).expect(200)).body).toEqual({ configs: [created.body], nextPageToken: '' });
    expect((await request(gw.url).delete(`${base}/r1`).set(auth).expect(200)).body).toEqual({});
    // Deleting again is not an error (idempotent), but the config stays gone.
    expect((await request(gw.url).delete(`${base}/r1`).set(auth).expect(200)).body).toEqual({});
    const gone = await request(gw.url).get(`${base}/r1`).set(auth).expect(404);
    expect(gone.body.error.status).toBe('NOT_FOUND');
    const refused = await request(gw.url).post(base).set(auth).send({ url: 'http://169.254.169.254/' }).expect(400);
    expect(refused.body.error.message).toMatch(/pushUrls/);
    const before = allowed.received.filter((r) => r.path === '/hooks/rest').length;
    release();
    await waitFor(
      'the task to finish',
      async () => (await rpc(HERMES, 'GetTask', { id: taskId })).result.status.state === 'TASK_STATE_COMPLETED',
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(allowed.received.filter((r) => r.path === '/hooks/rest').length).toBe(before);
  });

  it('the admin list refuses a bad filter, naming it', async () => {
    const res = await request(gw.url).get('/admin/a2a/push?state=lost').expect(400);
    expect(JSON.stringify(res.body)).toMatch(/state must be one of pending, delivered, failed/);
    await request(gw.url).get('/admin/a2a/push?limit=0').expect(400);
  });
});
