import type { Message, MessageSendParams, Part, Task } from 'a2a-sdk-v03';
import {
  Client,
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  TaskNotCancelableError,
  TaskNotFoundError,
} from 'a2a-sdk-v03/client';
import request from 'supertest';
import { SESSION_STORE, SessionStore } from '../../src/modules/sessions/session-store.port';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

/**
 * Interop with a real A2A 0.3 client: `@a2a-js/sdk` 0.3 (installed as `a2a-sdk-v03`) discovers the gateway
 * through the 0.3 card at /.well-known/agent.json and speaks 0.3 to /a2a/v1 (`message/send`, `tasks/get`,
 * `tasks/cancel`, `kind`-tagged parts, no A2A-Version header). Every answer it reads is 0.3-shaped.
 */

const HERMES = 'hermes-token-v03-7c1e9a2b4d';
const SLOWPOKE = 'slowpoke-token-v03-5f3b8d0e6a';

describe('A2A 0.3 interop with the @a2a-js/sdk 0.3 client (e2e)', () => {
  let gw: TestGateway;
  let model: FakeOpenAiServer;
  /** Every request the SDK put on the wire: URL, headers and body. */
  const wire: Array<{ url: string; headers: Headers; body?: any }> = [];

  const connect = async (token: string): Promise<Client> => {
    // The peer's credential travels the way a deployment adds it: a fetch that sets the header.
    const fetchWithToken: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('Authorization', `Bearer ${token}`);
      const url = input instanceof Request ? input.url : input.toString();
      wire.push({ url, headers, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
      return fetch(input, { ...init, headers });
    };
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ fetchImpl: fetchWithToken })],
      }),
    );
    return factory.createFromUrl(gw.url, '/.well-known/agent.json');
  };
  const text = (t: string): Part => ({ kind: 'text', text: t });
  const message = (parts: Part[], contextId?: string): Message => ({
    kind: 'message',
    messageId: `msg-${Math.random().toString(36).slice(2)}`,
    role: 'user',
    parts,
    ...(contextId ? { contextId } : {}),
  });
  const send = async (client: Client, params: MessageSendParams): Promise<Task> => {
    const result = await client.sendMessage(params);
    if (result.kind !== 'task') throw new Error(`expected a task, got ${JSON.stringify(result)}`);
    return result;
  };
  const artifactText = (task: Task) =>
    (task.artifacts ?? [])
      .flatMap((a) => a.parts)
      .map((p) => (p.kind === 'text' ? p.text : ''))
      .join('');
  const rpcCalls = () => wire.filter((w) => w.url.endsWith('/a2a/v1'));

  beforeAll(async () => {
    model = await new FakeOpenAiServer().start();
    model.always(model.stall());
    gw = await startTestGateway(`{
      models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
      agents: { list: [{ id: "main", default: true, identity: { name: "Main Bot" } }, { id: "slow", model: "fake/slow" }] },
      bindings: [{ agentId: "slow", match: { channel: "a2a", peer: { kind: "direct", id: "slowpoke" } } }],
      channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { hermes: { token: "${HERMES}" }, slowpoke: { token: "${SLOWPOKE}" } } } },
    }`);
  });
  afterAll(async () => {
    await gw?.stop();
    await model?.close();
  });

  it('reads the 0.3 card and picks the JSON-RPC endpoint from its url; authenticated, it gets its extended card', async () => {
    const client = await connect(HERMES);
    // The public card says supportsAuthenticatedExtendedCard, so the 0.3 client asks for its own card with its token.
    const card = await client.getAgentCard();
    expect(card).toMatchObject({
      protocolVersion: '0.3.0',
      name: 'Main Bot',
      url: `${gw.url}/a2a/v1`,
      preferredTransport: 'JSONRPC',
      capabilities: { streaming: true, pushNotifications: true },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      security: [{ bearer: [] }],
      supportsAuthenticatedExtendedCard: true,
    });
    // hermes reaches main only; slow is bound to another peer.
    expect(card.skills.map((s) => s.id)).toEqual(['main']);
    const publicCard = (await request(gw.url).get('/.well-known/agent.json').expect(200)).body as { skills: Array<{ id: string }> };
    expect(publicCard.skills.map((s) => s.id)).toEqual(['main', 'slow']);
  });

  it('message/send (blocking) answers a 0.3 task with the echo reply; the wire carries 0.3 names and no A2A-Version', async () => {
    const client = await connect(HERMES);
    const task = await send(client, { message: message([text('hello from 0.3')]) });
    expect(task).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    // The task's history in 0.3 form: the peer's message (the reply is the artifact).
    expect(task.history).toEqual([
      expect.objectContaining({ kind: 'message', role: 'user', taskId: task.id, parts: [{ kind: 'text', text: 'hello from 0.3' }] }),
    ]);
    expect(task.artifacts).toEqual([{ artifactId: expect.any(String), parts: [{ kind: 'text', text: '[main] hello from 0.3' }] }]);
    expect(task.contextId).toMatch(/^ctx-[0-9a-f-]{36}$/);
    const [call] = rpcCalls().slice(-1);
    expect(call.body).toMatchObject({
      method: 'message/send',
      params: { message: { kind: 'message', role: 'user' }, configuration: { blocking: true } },
    });
    expect(call.headers.get('A2A-Version')).toBeNull();
  });

  it('blocking: false answers working at once; tasks/get polls it to completed', async () => {
    const client = await connect(HERMES);
    const started = await send(client, { message: message([text('poll me')]), configuration: { blocking: false } });
    expect(started.status.state).toBe('working');
    let latest = started;
    for (let i = 0; i < 200 && latest.status.state === 'working'; i++) {
      await new Promise((r) => setTimeout(r, 10));
      latest = await client.getTask({ id: started.id });
    }
    expect(latest).toMatchObject({ kind: 'task', id: started.id, status: { state: 'completed' } });
    expect(artifactText(latest)).toBe('[main] poll me');
    expect(rpcCalls().slice(-1)[0].body.method).toBe('tasks/get');
  });

  it('reads text and data parts in order, and one contextId continues one session', async () => {
    const client = await connect(HERMES);
    const contextId = `ctx-v03-${Date.now()}`;
    await send(client, { message: message([text('first turn')], contextId) });
    const second = await send(client, { message: message([text('second'), { kind: 'data', data: { n: 2 } }], contextId) });
    expect(second.contextId).toBe(contextId);
    expect(artifactText(second)).toBe('[main] second\n{"n":2}');
    const { lines } = await gw.app.get<SessionStore>(SESSION_STORE).history(`agent:main:a2a:default:direct:hermes:${contextId}`);
    expect(lines.filter((l) => l.role === 'user').map((l) => l.text)).toEqual(['first turn', 'second\n{"n":2}']);
  });

  it('tasks/cancel stops a running task: canceled with a 0.3 agent message; again is TaskNotCancelableError', async () => {
    const client = await connect(SLOWPOKE);
    const started = await send(client, { message: message([text('think for a long time')]), configuration: { blocking: false } });
    expect(started.status.state).toBe('working');
    await waitFor('the run to reach the model', async () => model.requests.length >= 1);
    const canceled = await client.cancelTask({ id: started.id });
    expect(canceled).toMatchObject({ kind: 'task', id: started.id, status: { state: 'canceled' } });
    expect(canceled.status.message).toEqual({
      kind: 'message',
      messageId: expect.any(String),
      contextId: started.contextId,
      taskId: started.id,
      role: 'agent',
      parts: [{ kind: 'text', text: 'Task canceled by the peer' }],
    });
    expect((await client.getTask({ id: started.id })).status.state).toBe('canceled');
    const again = await client.cancelTask({ id: started.id }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(TaskNotCancelableError);
    // 0.3 errors carry the code and message only: no 1.0 ErrorInfo.
    expect((again as { errorResponse: { error: unknown } }).errorResponse.error).toEqual({
      code: -32002,
      message: 'Task cannot be canceled: it is already over',
    });
  });

  it('tasks/get of an unknown id, or of another peer’s task, is TaskNotFoundError', async () => {
    const hermes = await connect(HERMES);
    const mine = await send(hermes, { message: message([text('mine')]) });
    await expect(hermes.getTask({ id: 'no-such-task' })).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect((await connect(SLOWPOKE)).getTask({ id: mine.id })).rejects.toBeInstanceOf(TaskNotFoundError);
  });

  describe('the version rule on the raw wire', () => {
    const post = (body: object, headers: Record<string, string> = {}) => {
      let req = request(gw.url).post('/a2a/v1').set('Authorization', `Bearer ${HERMES}`);
      for (const [k, v] of Object.entries(headers)) req = req.set(k, v);
      return req.send(body).expect(200);
    };
    const v03Send = (role: unknown) => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: { message: { kind: 'message', messageId: 'm-raw', role, parts: [{ kind: 'text', text: 'raw' }] } },
    });

    it('a 0.3 message with a role that is neither user nor agent is -32602 naming the 0.3 roles', async () => {
      const res = await post(v03Send('robot'));
      expect(res.body.error).toEqual({ code: -32602, message: 'Invalid params: message.role is required: "user" or "agent"' });
    });

    it('A2A-Version decides over the method name: 1.0 answers message/send with {task}, 0.3 answers SendMessage with a 0.3 task', async () => {
      const v10 = await post(v03Send('user'), { 'A2A-Version': '1.0' });
      expect(v10.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
      const sendMessage = { ...v03Send('user'), method: 'SendMessage' };
      const v03 = await post(sendMessage, { 'A2A-Version': '0.3' });
      expect(v03.body.result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
      // Without a header the 1.0 name is read as 1.0.
      expect((await post(sendMessage)).body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    });

    it('a version that is not served is -32009 for a 0.3-named call too, with the ErrorInfo listing 0.3 and 1.0', async () => {
      const res = await post(v03Send('user'), { 'A2A-Version': '0.2' });
      expect(res.body.error).toMatchObject({
        code: -32009,
        data: [
          expect.objectContaining({ reason: 'VERSION_NOT_SUPPORTED', metadata: { requestedVersion: '0.2', supportedVersions: '0.3,1.0' } }),
        ],
      });
    });
  });
});
