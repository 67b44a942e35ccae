import { Role, TaskState } from '@a2a-js/sdk';
import type { Message, Task } from '@a2a-js/sdk';
import { Client, ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import request from 'supertest';
import { AgentRunner } from '../../src/modules/runtime/agent-runner.service';
import { ToolRegistry } from '../../src/modules/runtime/tool-registry';
import { SESSION_STORE, SessionStore } from '../../src/modules/sessions/session-store.port';
import { a2aRpc, userMessage } from '../support/a2a-rpc';
import { agentBrain } from '../support/agent-brain';
import type { FakeStep } from '../support/fake-model-server';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

/**
 * Multi-turn A2A: the agent's model calls request_input, the task becomes INPUT_REQUIRED with the question, the peer
 * answers with a SendMessage carrying the taskId, and the same run continues with the answer as the tool's result
 * until the task completes — through the real @a2a-js/sdk client, and over the HTTP+JSON binding; then the task's
 * history, bad answers, a cancel while waiting, and an answer that never comes.
 */

// As in a2a-interop: the SDK's CommonJS build requires jose (ESM-only) for card signatures, unused here.
jest.mock('jose', () => ({}));

const HERMES = 'hermes-token-multiturn-7c1d';
const IRIS = 'iris-token-multiturn-2b8e';
const INPUT_TIMEOUT_MS = 3000;

describe('A2A INPUT_REQUIRED and multi-turn (e2e)', () => {
  let model: FakeOpenAiServer;
  let gw: TestGateway;
  let client: Client;
  let sessions: SessionStore;
  const rpc = (method: string, params: unknown, token = HERMES) => a2aRpc(gw.url, token, method, params);

  const sdkMessage = (text: string, ids: { taskId?: string; contextId?: string } = {}): Message => ({
    messageId: `msg-${Math.random().toString(36).slice(2)}`,
    contextId: ids.contextId ?? '',
    taskId: ids.taskId ?? '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  });
  const sdkSend = async (message: Message): Promise<Task> => {
    const result = await client.sendMessage({ tenant: '', message, configuration: undefined, metadata: undefined });
    if (!('status' in result)) throw new Error('expected a task, got a message');
    return result;
  };
  const texts = (messages: Message[]) =>
    messages.map((m) => [m.role, m.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('')]);
  /** Names of the tools offered in a model request. */
  const offered = (body: { tools?: Array<{ function: { name: string } }> }) => (body.tools ?? []).map((t) => t.function.name);

  beforeAll(async () => {
    model = await new FakeOpenAiServer().start();
    const brain = agentBrain(model, ({ message, toolResult }) => {
      if (toolResult) {
        return toolResult.status === 'ok'
          ? { text: `booked a flight to ${String(toolResult.answer)}` }
          : { text: `went on: ${String(toolResult.status)}` };
      }
      if (message.includes('book')) return { tool: 'request_input', args: { question: 'Which city?' } };
      return { text: `plain answer to: ${message}` };
    });
    const stallOr: FakeStep = (req) => (JSON.stringify(req.body.messages).includes('please stall') ? 'stall' : brain(req));
    model.always(stallOr);
    gw = await startTestGateway(`{
      models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
      agents: { list: [{ id: "main", default: true, model: "fake/brain" }] },
      channels: { a2a: { enabled: true, rateLimitPerMinute: 0, inputTimeoutMs: ${INPUT_TIMEOUT_MS},
        peers: { hermes: { token: "${HERMES}" }, iris: { token: "${IRIS}" } } } },
    }`);
    sessions = gw.app.get(SESSION_STORE);
    const fetchWithToken: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('Authorization', `Bearer ${HERMES}`);
      return fetch(input, { ...init, headers });
    };
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ fetchImpl: fetchWithToken })],
      }),
    );
    client = await factory.createFromUrl(gw.url);
  });
  afterAll(async () => {
    await gw?.stop();
    await model?.close();
  });

  it('round trip with the SDK client: INPUT_REQUIRED with the question, the answer continues the same run to COMPLETED', async () => {
    const asked = await sdkSend(sdkMessage('please book a flight'));
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(texts(asked.status?.message ? [asked.status.message] : [])).toEqual([[Role.ROLE_AGENT, 'Which city?']]);
    expect(texts(asked.history)).toEqual([
      [Role.ROLE_USER, 'please book a flight'],
      [Role.ROLE_AGENT, 'Which city?'],
    ]);
    const runBefore = (await request(gw.url).get(`/admin/a2a/tasks/${asked.id}`).expect(200)).body.runId;

    const done = await sdkSend(sdkMessage('Paris', { taskId: asked.id, contextId: asked.contextId }));
    expect(done.id).toBe(asked.id);
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(done.artifacts.flatMap((a) => a.parts).map((p) => (p.content?.$case === 'text' ? p.content.value : ''))).toEqual([
      'booked a flight to Paris',
    ]);
    // One run did it all: the answer came back as the tool result of the same run.
    const admin = (await request(gw.url).get(`/admin/a2a/tasks/${asked.id}`).expect(200)).body;
    expect(admin.runId).toBe(runBefore);
    expect(JSON.parse(model.lastToolResult() ?? '{}')).toEqual({ status: 'ok', answer: 'Paris' });
    const lines = (await sessions.history(admin.sessionKey, { includeTools: true })).lines.filter((l) => l.runId === runBefore);
    expect(lines.map((l) => l.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(model.requests.some((r) => offered(r.body).includes('request_input'))).toBe(true);
  });

  it('GetTask and SendMessage honour historyLength (unset: all, 0: none, n: the last n); ListTasks only when asked', async () => {
    const asked = (await rpc('SendMessage', userMessage('book a table'))).result.task;
    expect(asked.history.map((m: { role: string }) => m.role)).toEqual(['ROLE_USER', 'ROLE_AGENT']);
    const answered = (
      await rpc('SendMessage', {
        message: { messageId: 'answer-1', role: 'ROLE_USER', taskId: asked.id, parts: [{ text: 'Lyon' }] },
        configuration: { historyLength: 1 },
      })
    ).result.task;
    expect(answered.status.state).toBe('TASK_STATE_COMPLETED');
    expect(answered.history).toEqual([
      { messageId: 'answer-1', contextId: asked.contextId, taskId: asked.id, role: 'ROLE_USER', parts: [{ text: 'Lyon' }] },
    ]);

    const get = async (historyLength?: number) => (await rpc('GetTask', { id: asked.id, historyLength })).result;
    expect((await get()).history.map((m: { parts: Array<{ text: string }> }) => m.parts[0].text)).toEqual([
      'book a table',
      'Which city?',
      'Lyon',
    ]);
    expect((await get(2)).history.map((m: { parts: Array<{ text: string }> }) => m.parts[0].text)).toEqual(['Which city?', 'Lyon']);
    expect(await get(0)).not.toHaveProperty('history');
    expect((await get(50)).history).toHaveLength(3);

    const listed = (await rpc('ListTasks', { contextId: asked.contextId })).result.tasks;
    expect(listed[0]).not.toHaveProperty('history');
    const withHistory = (await rpc('ListTasks', { contextId: asked.contextId, historyLength: 1 })).result.tasks;
    expect(withHistory[0].history.map((m: { parts: Array<{ text: string }> }) => m.parts[0].text)).toEqual(['Lyon']);
    // A plain task has its one message in, and the reply as the artifact.
    const plain = (await rpc('SendMessage', userMessage('hello there'))).result.task;
    expect(plain.history.map((m: { parts: Array<{ text: string }> }) => m.parts[0].text)).toEqual(['hello there']);
  });

  it('over HTTP+JSON: message:send with the taskId answers the question; historyLength on message:send, GET and list', async () => {
    const rest = (method: 'get' | 'post', path: string, body?: unknown) => {
      const req = request(gw.url)[method](`/a2a/v1${path}`).set('Authorization', `Bearer ${HERMES}`);
      return body === undefined ? req : req.set('Content-Type', 'application/a2a+json').send(JSON.stringify(body));
    };
    const textsOf = (task: { history?: Array<{ parts: Array<{ text: string }> }> }) => task.history?.map((m) => m.parts[0].text);
    const asked = (await rest('post', '/message:send', userMessage('book a boat'))).body.task;
    expect(asked.status).toMatchObject({ state: 'TASK_STATE_INPUT_REQUIRED', message: { parts: [{ text: 'Which city?' }] } });
    const answered = await rest('post', '/message:send', {
      message: { messageId: 'rest-answer', role: 'ROLE_USER', taskId: asked.id, parts: [{ text: 'Oslo' }] },
      configuration: { historyLength: 0 },
    });
    expect(answered.status).toBe(200);
    expect(answered.body.task).toMatchObject({ id: asked.id, status: { state: 'TASK_STATE_COMPLETED' } });
    expect(answered.body.task.artifacts[0].parts[0].text).toBe('booked a flight to Oslo');
    expect(answered.body.task).not.toHaveProperty('history');

    expect(textsOf((await rest('get', `/tasks/${asked.id}`)).body)).toEqual(['book a boat', 'Which city?', 'Oslo']);
    expect(textsOf((await rest('get', `/tasks/${asked.id}?historyLength=1`)).body)).toEqual(['Oslo']);
    const listed = (await rest('get', `/tasks?contextId=${asked.contextId}&historyLength=2`)).body.tasks;
    expect(textsOf(listed[0])).toEqual(['Which city?', 'Oslo']);
    expect((await rest('get', `/tasks?contextId=${asked.contextId}`)).body.tasks[0]).not.toHaveProperty('history');

    // The errors of an answer are those of JSON-RPC, in this binding's form.
    const again = await rest('post', '/message:send', {
      message: { messageId: 'rest-again', role: 'ROLE_USER', taskId: asked.id, parts: [{ text: 'Bergen' }] },
    });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({
      status: 'FAILED_PRECONDITION',
      message: 'Task is already over: omit taskId and reuse contextId',
    });
    const badHistory = await rest('post', '/message:send', { ...userMessage('x'), configuration: { historyLength: -1 } });
    expect(badHistory.status).toBe(400);
    expect(badHistory.body.error.message).toContain('configuration.historyLength must be a non-negative integer');
  });

  it('reads proto field names (history_length, context_id, ...) as their JSON names, in both bindings; both at once is refused', async () => {
    const textsOf = (task: { history?: Array<{ parts: Array<{ text: string }> }> }) => task.history?.map((m) => m.parts[0].text);
    const asked = (await rpc('SendMessage', userMessage('book a bus'))).result.task;
    await rpc('SendMessage', { message: { message_id: 'snake-answer', role: 'ROLE_USER', task_id: asked.id, parts: [{ text: 'Rome' }] } });
    // JSON-RPC params.
    expect(textsOf((await rpc('GetTask', { id: asked.id, history_length: 1 })).result)).toEqual(['Rome']);
    const listed = (await rpc('ListTasks', { context_id: asked.contextId, history_length: 2, page_size: 1 })).result;
    expect(listed.tasks).toHaveLength(1);
    expect(textsOf(listed.tasks[0])).toEqual(['Which city?', 'Rome']);
    const both = await rpc('GetTask', { id: asked.id, historyLength: 1, history_length: 1 });
    expect(both.error).toMatchObject({
      code: -32602,
      message: 'Invalid params: historyLength and history_length are the same field: send it once',
    });
    const bothInMessage = await rpc('SendMessage', {
      ...userMessage('x'),
      configuration: { returnImmediately: false, return_immediately: true },
    });
    expect(bothInMessage.error?.message).toContain('configuration.returnImmediately and configuration.return_immediately');

    // HTTP+JSON query and body.
    const rest = (method: 'get' | 'post', path: string, body?: unknown) => {
      const req = request(gw.url)[method](`/a2a/v1${path}`).set('Authorization', `Bearer ${HERMES}`);
      return body === undefined ? req : req.set('Content-Type', 'application/json').send(JSON.stringify(body));
    };
    expect(textsOf((await rest('get', `/tasks/${asked.id}?history_length=1`)).body)).toEqual(['Rome']);
    const restListed = (await rest('get', `/tasks?context_id=${asked.contextId}&history_length=1`)).body.tasks;
    expect(restListed.map((t: { id: string }) => t.id)).toEqual([asked.id]);
    expect(textsOf(restListed[0])).toEqual(['Rome']);
    const restBoth = await rest('get', `/tasks/${asked.id}?historyLength=1&history_length=1`);
    expect(restBoth.status).toBe(400);
    expect(restBoth.body.error).toMatchObject({
      status: 'INVALID_ARGUMENT',
      message: 'Invalid params: historyLength and history_length are the same field: send it once',
    });
    const sent = await rest('post', '/message:send', { ...userMessage('book a tram'), configuration: { history_length: 0 } });
    expect(sent.status).toBe(200);
    expect(sent.body.task).not.toHaveProperty('history');
  });

  it('refuses bad answers with the specification’s errors, and the process stays up', async () => {
    const asked = (await rpc('SendMessage', userMessage('book a car'))).result.task;
    const answer = (taskId: string, extra: Record<string, unknown> = {}, token = HERMES) =>
      rpc(
        'SendMessage',
        { message: { messageId: `a-${Math.random()}`, role: 'ROLE_USER', taskId, parts: [{ text: 'Nice' }], ...extra } },
        token,
      );

    const wrongContext = await answer(asked.id, { contextId: 'ctx-someone-else' });
    expect(wrongContext.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining("message.contextId is not the task's contextId"),
    });
    // Another peer cannot answer (nor see) hermes's task: the same -32001 as an unknown id.
    expect((await answer(asked.id, {}, IRIS)).error).toMatchObject({ code: -32001, message: 'Task not found' });
    expect((await answer('no-such-task')).error?.code).toBe(-32001);
    const badHistory = await rpc('SendMessage', { ...userMessage('x'), configuration: { historyLength: -2 } });
    expect(badHistory.error).toMatchObject({ code: -32602, message: expect.stringContaining('configuration.historyLength') });
    // Still waiting after all that: the right answer goes through; a second answer finds the task over.
    expect((await rpc('GetTask', { id: asked.id })).result.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect((await answer(asked.id, { contextId: asked.contextId })).result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect((await answer(asked.id)).error).toMatchObject({
      code: -32004,
      message: 'Task is already over: omit taskId and reuse contextId',
    });

    // A task that is working, not waiting for input, takes no answer either.
    const busy = (await rpc('SendMessage', { ...userMessage('please stall'), configuration: { returnImmediately: true } })).result.task;
    const notWaiting = await answer(busy.id);
    expect(notWaiting.error).toMatchObject({ code: -32004, message: expect.stringContaining('not waiting for input') });
    await rpc('CancelTask', { id: busy.id });
  });

  it('CancelTask while INPUT_REQUIRED aborts the waiting run and answers CANCELED', async () => {
    const asked = (await rpc('SendMessage', userMessage('book a hotel'))).result.task;
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const canceled = (await rpc('CancelTask', { id: asked.id })).result;
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    expect(canceled.history.map((m: { parts: Array<{ text: string }> }) => m.parts[0].text)).toEqual([
      'book a hotel',
      'Which city?',
      'Task canceled by the peer',
    ]);
    const { sessionKey, runId } = (await request(gw.url).get(`/admin/a2a/tasks/${asked.id}`).expect(200)).body;
    expect(gw.app.get(AgentRunner).getRun(runId)).toMatchObject({ status: 'aborted' });
    expect((await sessions.history(sessionKey)).lines.at(-1)).toMatchObject({
      role: 'system',
      text: 'run aborted: Task canceled by the peer',
    });
  });

  it('an answer that never comes: after inputTimeoutMs the run goes on without it and the task completes', async () => {
    const asked = (await rpc('SendMessage', userMessage('book a train'))).result.task;
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const settled = await waitFor(
      'the task to complete without an answer',
      async () => {
        const task = (await rpc('GetTask', { id: asked.id })).result;
        return task.status.state === 'TASK_STATE_COMPLETED' && task;
      },
      INPUT_TIMEOUT_MS + 5000,
    );
    expect(settled.artifacts[0].parts[0].text).toBe('went on: timeout');
    expect(JSON.parse(model.lastToolResult() ?? '{}')).toMatchObject({
      status: 'timeout',
      error: expect.stringContaining('channels.a2a.inputTimeoutMs'),
    });
  });

  it('names what is wrong in a bad request_input call or a bad channels.a2a.inputTimeoutMs, and keeps serving', async () => {
    const registry = gw.app.get(ToolRegistry);
    expect(registry.argumentError('request_input', {})).toBe('missing required argument "question"');
    expect(registry.argumentError('request_input', { question: '   ' })).toContain('argument "question"');
    expect(registry.argumentError('request_input', { question: 'x'.repeat(4001) })).toContain('argument "question"');
    expect(registry.argumentError('request_input', { question: 'Which?', to: 'iris' })).toBe('unknown argument "to"');
    const bad = await request(gw.url)
      .post('/admin/config/validate')
      .send({ channels: { a2a: { inputTimeoutMs: 'forever' } } })
      .expect(422);
    expect(bad.body.errors).toContainEqual(
      expect.objectContaining({ path: 'channels.a2a.inputTimeoutMs', message: expect.stringContaining('must be an integer number') }),
    );
    expect((await rpc('GetTask', { id: 'no-such-task' })).error?.code).toBe(-32001);
  });

  it('request_input is offered only to runs of A2A tasks', async () => {
    const runner = gw.app.get(AgentRunner);
    const before = model.requests.length;
    const run = runner.startRun({ sessionKey: 'agent:main:main', message: 'please book a bus' });
    const record = await run.done;
    const direct = model.requests.slice(before);
    expect(direct.every((r) => !offered(r.body).includes('request_input'))).toBe(true);
    // The model asks anyway: the registry answers that there is no such tool here, and the run finishes.
    expect(record.status).toBe('completed');
    expect(JSON.parse(model.lastToolResult() ?? '{}')).toMatchObject({
      status: 'error',
      error: expect.stringContaining('unknown tool "request_input"'),
    });
  });
});
