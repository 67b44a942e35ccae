import * as net from 'node:net';
import request from 'supertest';
import { a2aRpc, userMessage } from '../support/a2a-rpc';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

/**
 * The HTTP+JSON (REST) binding below /a2a/v1 (docs/a2a.md#httpjson-rest), every route over raw HTTP: what it answers,
 * and what a bad request gets — the status and google.rpc.Status body the specification gives that binding, for the
 * same checks (auth, scoping, validation) the JSON-RPC endpoint makes.
 */

const HERMES = 'hermes-token-rest-0123456789';
const IRIS = 'iris-token-rest-9876543210ab';
const SLOW = 'slowpoke-token-rest-55555555';
const INFO = 'type.googleapis.com/google.rpc.ErrorInfo';

describe('A2A HTTP+JSON binding (e2e)', () => {
  let gw: TestGateway;
  let model: FakeOpenAiServer;
  const bodies: string[] = [];

  const rest = async (method: 'get' | 'post' | 'delete' | 'put', path: string, token: string | null = HERMES, body?: unknown) => {
    let req = request(gw.url)[method](`/a2a/v1${path}`);
    if (token !== null) req = req.set('Authorization', `Bearer ${token}`);
    if (body !== undefined)
      req = req.set('Content-Type', 'application/a2a+json').send(typeof body === 'string' ? body : JSON.stringify(body));
    const res = await req;
    bodies.push(res.text);
    return res;
  };
  /** The error body's fields the specification fixes; `reason` only for the A2A-specific errors. */
  const expectError = (res: request.Response, http: number, status: string, reason?: string) => {
    expect(res.status).toBe(http);
    expect(res.headers['content-type']).toBe('application/a2a+json');
    expect(res.body.error).toMatchObject({ code: http, status, message: expect.any(String) });
    if (reason) expect(res.body.error.details).toEqual([expect.objectContaining({ '@type': INFO, reason, domain: 'a2a-protocol.org' })]);
    else expect(res.body.error.details).toBeUndefined();
    return res.body.error as { message: string; details?: Array<{ metadata?: Record<string, string> }> };
  };
  const sendTask = async (text: string, token = HERMES, extra: Record<string, unknown> = {}) => {
    const res = await rest('post', '/message:send', token, { ...userMessage(text, extra.contextId as string | undefined), ...extra });
    expect(res.status).toBe(200);
    return res.body.task as { id: string; contextId: string; status: { state: string }; artifacts?: unknown[] };
  };

  beforeAll(async () => {
    model = await new FakeOpenAiServer().start();
    model.always(model.stall());
    gw = await startTestGateway(`{
      models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
      agents: { list: [{ id: "main", default: true }, { id: "slow", model: "fake/slow" }] },
      bindings: [{ agentId: "slow", match: { channel: "a2a", peer: { kind: "direct", id: "slowpoke" } } }],
      channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: {
        hermes: { token: "${HERMES}" }, iris: { token: "${IRIS}" }, slowpoke: { token: "${SLOW}" },
      } } },
    }`);
  });
  afterAll(async () => {
    await gw?.stop();
    await model?.close();
    // No answer of this suite ever carried a token.
    for (const token of [HERMES, IRIS, SLOW]) expect(bodies.join('\n')).not.toContain(token);
  });

  it('POST /message:send runs the task and answers {task} as application/a2a+json; the tenant prefix works too', async () => {
    const res = await rest('post', '/message:send', HERMES, userMessage('hello over rest'));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/a2a+json');
    expect(res.body.task).toMatchObject({
      status: { state: 'TASK_STATE_COMPLETED' },
      artifacts: [{ parts: [{ text: '[main] hello over rest' }] }],
    });
    const tenanted = await rest('post', '/acme/message:send', HERMES, userMessage('with a tenant'));
    expect(tenanted.body.task.artifacts[0].parts[0].text).toBe('[main] with a tenant');
    // application/json is fine too (what @a2a-js/sdk sends).
    const plain = await request(gw.url)
      .post('/a2a/v1/message:send')
      .set('Authorization', `Bearer ${HERMES}`)
      .send(userMessage('plain json'));
    expect(plain.body.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('GET /tasks/{id} answers the task (historyLength checked), the same one GetTask over JSON-RPC gives', async () => {
    const task = await sendTask('read me back');
    const res = await rest('get', `/tasks/${task.id}?historyLength=3`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual((await a2aRpc(gw.url, HERMES, 'GetTask', { id: task.id })).result);
    expect(expectError(await rest('get', `/tasks/${task.id}?historyLength=-1`), 400, 'INVALID_ARGUMENT').message).toBe(
      'Invalid params: historyLength must be a non-negative integer',
    );
    expectError(await rest('get', `/tasks/${task.id}?historyLength=ten`), 400, 'INVALID_ARGUMENT');
  });

  it("GET /tasks/{id} of an unknown task and of another peer's are the same 404 TASK_NOT_FOUND", async () => {
    const irisTask = await sendTask('iris owns this', IRIS);
    const foreign = expectError(await rest('get', `/tasks/${irisTask.id}`), 404, 'NOT_FOUND', 'TASK_NOT_FOUND');
    const unknown = expectError(await rest('get', '/tasks/no-such-task'), 404, 'NOT_FOUND', 'TASK_NOT_FOUND');
    expect(foreign.details![0].metadata).toEqual({ taskId: irisTask.id });
    expect({ ...foreign, details: undefined }).toEqual({ ...unknown, details: undefined });
    expect((await rest('get', `/tasks/${irisTask.id}`, IRIS)).body.id).toBe(irisTask.id);
  });

  it("GET /tasks pages through the peer's own tasks with the query parameters", async () => {
    const contextId = `ctx-rest-list-${Date.now()}`;
    const mine = [];
    for (let i = 0; i < 3; i++) mine.push(await sendTask(`list ${i}`, HERMES, { contextId }));
    await sendTask('not listed for hermes', IRIS, { contextId });
    const seen: Array<{ id: string; artifacts?: unknown[] }> = [];
    let pageToken = '';
    do {
      const res = await rest('get', `/tasks?contextId=${contextId}&pageSize=2&status=TASK_STATE_COMPLETED&pageToken=${pageToken}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ pageSize: 2, totalSize: 3 });
      seen.push(...res.body.tasks);
      pageToken = res.body.nextPageToken;
    } while (pageToken);
    expect(seen.map((t) => t.id).sort()).toEqual(mine.map((t) => t.id).sort());
    expect(seen.every((t) => t.artifacts === undefined)).toBe(true);
    const withArtifacts = await rest('get', `/tasks?contextId=${contextId}&includeArtifacts=true`);
    expect(withArtifacts.body.tasks.every((t: { artifacts: unknown[] }) => t.artifacts.length === 1)).toBe(true);
    const since = await rest('get', `/tasks?contextId=${contextId}&statusTimestampAfter=${encodeURIComponent('2999-01-01T00:00:00Z')}`);
    expect(since.body).toMatchObject({ tasks: [], totalSize: 0 });
  });

  it.each<[string, string]>([
    ['pageSize=0', 'pageSize must be an integer 1..100'],
    ['pageSize=ten', 'pageSize must be an integer 1..100'],
    ['status=DONE', 'status must be one of'],
    ['includeArtifacts=yes', 'includeArtifacts must be a boolean'],
    ['statusTimestampAfter=yesterday', 'statusTimestampAfter must be an ISO 8601 timestamp'],
    ['contextId=a%2Fb', 'contextId must match'],
    ['pageToken=garbage', 'pageToken'],
    ['pagesize=2', 'unknown query parameter "pagesize" for GET /tasks'],
    ['pageSize=1&pageSize=2', 'query parameter pageSize is given more than once'],
  ])('GET /tasks?%s is 400 INVALID_ARGUMENT naming the parameter', async (query, words) => {
    expect(expectError(await rest('get', `/tasks?${query}`), 400, 'INVALID_ARGUMENT').message).toContain(words);
  });

  it('POST /tasks/{id}:cancel (no body, as @a2a-js/sdk sends it) stops a running task; then 400 TASK_NOT_CANCELABLE', async () => {
    const started = (
      await rest('post', '/message:send', SLOW, { ...userMessage('take forever'), configuration: { returnImmediately: true } })
    ).body.task;
    expect(started.status.state).toBe('TASK_STATE_WORKING');
    await waitFor('the run to reach the model', async () => model.requests.length >= 1);
    expectError(await rest('post', `/tasks/${started.id}:cancel`, HERMES), 404, 'NOT_FOUND', 'TASK_NOT_FOUND');
    const canceled = await rest('post', `/tasks/${started.id}:cancel`, SLOW);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ id: started.id, status: { state: 'TASK_STATE_CANCELED' } });
    const again = expectError(
      await rest('post', `/tasks/${started.id}:cancel`, SLOW, {}),
      400,
      'FAILED_PRECONDITION',
      'TASK_NOT_CANCELABLE',
    );
    expect(again.message).toBe('Task cannot be canceled: it is already over');
    expectError(await rest('post', '/tasks/no-such-task:cancel', SLOW), 404, 'NOT_FOUND', 'TASK_NOT_FOUND');
    expectError(await rest('post', `/tasks/${started.id}:cancel`, SLOW, '[1]'), 400, 'INVALID_ARGUMENT');
  });

  it.each<[string, 'get' | 'post', string, number, string, string]>([
    ['message:stream without a message', 'post', '/message:stream', 400, 'INVALID_ARGUMENT', ''],
    ['tasks/{id}:subscribe (GET, as a2a.proto) of an unknown task', 'get', '/tasks/x:subscribe', 404, 'NOT_FOUND', 'TASK_NOT_FOUND'],
    [
      'tasks/{id}:subscribe (POST, as the specification text) of an unknown task',
      'post',
      '/tasks/x:subscribe',
      404,
      'NOT_FOUND',
      'TASK_NOT_FOUND',
    ],
  ])('%s is answered with the JSON error before any stream opens', async (_name, method, path, http, status, reason) => {
    const body = method === 'post' ? {} : undefined;
    expectError(await rest(method, path, HERMES, body), http, status, reason);
  });

  it.each<['get' | 'post' | 'delete', string]>([
    ['post', '/tasks/x/pushNotificationConfigs'],
    ['get', '/tasks/x/pushNotificationConfigs'],
    ['get', '/tasks/x/pushNotificationConfigs/c-1'],
    ['delete', '/tasks/x/pushNotificationConfigs/c-1'],
  ])('%s %s of an unknown task is 404 TASK_NOT_FOUND', async (method, path) => {
    const body = method === 'post' ? { url: 'https://peer.example/hook' } : undefined;
    expectError(await rest(method, path, HERMES, body), 404, 'NOT_FOUND', 'TASK_NOT_FOUND');
  });

  it('bad bodies are 400 INVALID_ARGUMENT naming what is wrong', async () => {
    expect(expectError(await rest('post', '/message:send', HERMES, '{"message": '), 400, 'INVALID_ARGUMENT').message).toBe(
      'The request body is not valid JSON',
    );
    expect(expectError(await rest('post', '/message:send', HERMES, '"hi"'), 400, 'INVALID_ARGUMENT').message).toBe(
      'Invalid params: the request body must be a JSON object',
    );
    expect(expectError(await rest('post', '/message:send', HERMES, {}), 400, 'INVALID_ARGUMENT').message).toContain('message');
    const noBody = await request(gw.url).post('/a2a/v1/message:send').set('Authorization', `Bearer ${HERMES}`);
    expectError(noBody, 400, 'INVALID_ARGUMENT');
  });

  it('a path that is no operation is 404, a wrong HTTP method 405 with Allow', async () => {
    expect(expectError(await rest('get', '/taskz'), 404, 'NOT_FOUND').message).toBe('No A2A operation at /a2a/v1/taskz');
    expectError(await rest('post', '/tasks/x:frobnicate'), 404, 'NOT_FOUND');
    const wrong = await rest('delete', '/tasks/x');
    expect(expectError(wrong, 405, 'UNIMPLEMENTED').message).toBe('/a2a/v1/tasks/x does not answer DELETE; it answers GET');
    expect(wrong.headers.allow).toBe('GET');
    expect((await rest('put', '/message:send', HERMES, {})).headers.allow).toBe('POST');
    expectError(await rest('get', '/tasks/%E0%A4%A'), 400, 'INVALID_ARGUMENT');
  });

  it('no or a wrong token is the 401 of the JSON-RPC endpoint (status, challenge, words), before the body is read', async () => {
    const rpc = await request(gw.url)
      .post('/a2a/v1')
      .send({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } });
    for (const res of [await rest('get', '/tasks', null), await rest('post', '/message:send', 'nope', userMessage('hi'))]) {
      expect(expectError(res, 401, 'UNAUTHENTICATED').message).toBe(rpc.body.detail);
      expect(res.status).toBe(rpc.status);
      expect(res.headers['www-authenticate']).toBe(rpc.headers['www-authenticate']);
    }
    // An anonymous oversized body is refused for the token, not the size.
    expectError(await rest('post', '/message:send', null, 'x'.repeat(2 * 1024 * 1024)), 401, 'UNAUTHENTICATED');
  });

  it('an absolute-form request target reaches the same route, query included (through the express mount)', async () => {
    const { port } = new URL(gw.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () =>
        socket.write(
          `GET http://127.0.0.1:${port}/a2a/v1/tasks?pageSize=0 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${HERMES}\r\nConnection: close\r\n\r\n`,
        ),
      );
      let text = '';
      socket.on('data', (c) => (text += c.toString('utf8')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('pageSize must be an integer 1..100');
  });

  it('A2A-Version other than 1.0 (0.3 included: this binding has no 0.3 form) is 400 VERSION_NOT_SUPPORTED', async () => {
    const versioned = (version: string) =>
      request(gw.url).get('/a2a/v1/tasks').set('Authorization', `Bearer ${HERMES}`).set('A2A-Version', version);
    for (const version of ['99.0', '0.3']) {
      expect(expectError(await versioned(version), 400, 'FAILED_PRECONDITION', 'VERSION_NOT_SUPPORTED')).toMatchObject({
        message: 'A2A version not supported',
        details: [{ metadata: { requestedVersion: version, supportedVersions: '1.0' } }],
      });
    }
    expectError(await rest('get', '/tasks?A2A-Version=2.0'), 400, 'FAILED_PRECONDITION', 'VERSION_NOT_SUPPORTED');
    expectError(await rest('get', '/tasks?A2A-Version=0.3.0'), 400, 'FAILED_PRECONDITION', 'VERSION_NOT_SUPPORTED');
    // The same 0.3 request over JSON-RPC is answered, in 0.3 form.
    const rpc = await request(gw.url)
      .post('/a2a/v1')
      .set('Authorization', `Bearer ${HERMES}`)
      .set('A2A-Version', '0.3')
      .send({ jsonrpc: '2.0', id: 1, method: 'tasks/list', params: {} });
    expect(rpc.body.result).toBeDefined();
    expect((await request(gw.url).get('/a2a/v1/tasks').set('Authorization', `Bearer ${HERMES}`).set('A2A-Version', '1.0')).status).toBe(
      200,
    );
  });
});
