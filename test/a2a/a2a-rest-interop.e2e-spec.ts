import { TaskState } from '@a2a-js/sdk';
import type { AgentCard, Task } from '@a2a-js/sdk';
import { type Client, RestTransportFactory, type Transport } from '@a2a-js/sdk/client';
import {
  ContentTypeNotSupportedError,
  PushNotificationNotSupportedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  VersionNotSupportedError,
} from '@a2a-js/sdk/errors';
import { SESSION_STORE, SessionStore } from '../../src/modules/sessions/session-store.port';
import { artifactText, fetchWithToken, SeenRequest, sdkClient, sdkFile, sdkSendRequest, sendTask, SendOptions } from '../support/a2a-sdk';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/**
 * Interop over the HTTP+JSON interface with @a2a-js/sdk's own REST transport, the binding's reference client: it picks
 * the interface from our Agent Card, builds the URLs itself, and reads our error bodies into its typed errors.
 */

// The SDK's CommonJS build loads jose (ESM-only) for card signatures; see test/support/a2a-sdk.ts.
jest.mock('jose', () => ({}));

const HERMES = 'hermes-token-rest-interop-7c1d';

describe('A2A HTTP+JSON interop with the @a2a-js/sdk REST transport (e2e, echo model)', () => {
  let gw: TestGateway;
  let client: Client;
  let card: AgentCard;
  const seen: SeenRequest[] = [];
  const send = (t: string, options: SendOptions = {}): Promise<Task> => sendTask(client, t, options);
  /** The bare transport: the client checks the card's capabilities itself, this reaches our answer for them. */
  const transport = (): Promise<Transport> =>
    new RestTransportFactory({ fetchImpl: fetchWithToken(HERMES, seen) }).create(`${gw.url}/a2a/v1`, card);

  beforeAll(async () => {
    gw = await startTestGateway(`{
      agents: { list: [{ id: "main", default: true }] },
      channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { hermes: { token: "${HERMES}" } } } },
    }`);
    client = await sdkClient(gw.url, fetchWithToken(HERMES, seen), 'HTTP+JSON');
    card = await client.getAgentCard();
  });
  afterAll(() => gw?.stop());

  it('selects the HTTP+JSON 1.0 interface of our card and sends its requests to the binding’s URLs', async () => {
    expect(card.supportedInterfaces).toContainEqual({
      url: `${gw.url}/a2a/v1`,
      protocolBinding: 'HTTP+JSON',
      protocolVersion: '1.0',
      tenant: '',
    });
    const task = await send('hello over rest');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(task)).toBe('[main] hello over rest');
    const call = seen.at(-1)!;
    expect(call).toMatchObject({ url: `${gw.url}/a2a/v1/message:send`, method: 'POST' });
    expect(call.headers.get('A2A-Version')).toBe('1.0');
  });

  it('returnImmediately answers WORKING, then GET /tasks/{id} reaches COMPLETED', async () => {
    const task = await send('poll me', { returnImmediately: true });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    let latest = task;
    for (let i = 0; i < 200 && latest.status?.state === TaskState.TASK_STATE_WORKING; i++) {
      await new Promise((r) => setTimeout(r, 10));
      latest = await client.getTask({ tenant: '', id: task.id, historyLength: 5 });
    }
    expect(latest.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(latest)).toBe('[main] poll me');
    expect(seen.at(-1)).toMatchObject({ url: `${gw.url}/a2a/v1/tasks/${task.id}?historyLength=5`, method: 'GET' });
  });

  it('GetTask of an unknown id raises the SDK TaskNotFoundError with our 404', async () => {
    const error = await client.getTask({ tenant: '', id: 'no-such-task' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskNotFoundError);
    expect(error).toMatchObject({ statusCode: 404, message: 'Task not found', metadata: { taskId: 'no-such-task' } });
  });

  it('ListTasks pages through this peer’s tasks with the SDK’s query parameters', async () => {
    const contextId = `ctx-rest-list-${Date.now()}`;
    const mine = [];
    for (let i = 0; i < 5; i++) mine.push(await send(`list ${i}`, { contextId }));
    const listed: Task[] = [];
    let pageToken = '';
    do {
      const page = await client.listTasks({
        tenant: '',
        contextId,
        status: TaskState.TASK_STATE_COMPLETED,
        pageSize: 2,
        pageToken,
        statusTimestampAfter: undefined,
        includeArtifacts: true,
      });
      expect(page).toMatchObject({ pageSize: 2, totalSize: 5 });
      expect(page.tasks.length).toBeLessThanOrEqual(2);
      listed.push(...page.tasks);
      pageToken = page.nextPageToken;
    } while (pageToken);
    expect(listed.map((t) => t.id).sort()).toEqual(mine.map((t) => t.id).sort());
    expect(listed.map(artifactText).sort()).toEqual(mine.map(artifactText).sort());
    expect(seen.at(-1)!.url).toContain(`/a2a/v1/tasks?contextId=${contextId}&status=TASK_STATE_COMPLETED&pageSize=2&pageToken=`);
  });

  it('CancelTask of a finished task raises TaskNotCancelableError (400); of an unknown one TaskNotFoundError (404)', async () => {
    const done = await send('already done');
    const notCancelable = await client.cancelTask({ tenant: '', id: done.id, metadata: undefined }).catch((e: unknown) => e);
    expect(notCancelable).toBeInstanceOf(TaskNotCancelableError);
    expect(notCancelable).toMatchObject({ statusCode: 400 });
    expect(seen.at(-1)).toMatchObject({ url: `${gw.url}/a2a/v1/tasks/${done.id}:cancel`, method: 'POST' });
    const unknown = await client.cancelTask({ tenant: '', id: 'no-such-task', metadata: undefined }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(TaskNotFoundError);
  });

  it('getAgentCard fetches the extended card from GET /extendedAgentCard, as the public card says it may', async () => {
    const before = seen.length;
    const extended = await client.getAgentCard();
    expect(extended.capabilities?.extendedAgentCard).toBe(true);
    expect(extended.skills.map((s) => s.id)).toEqual(['main']);
    expect(seen.slice(before)).toEqual([expect.objectContaining({ url: `${gw.url}/a2a/v1/extendedAgentCard`, method: 'GET' })]);
  });

  it('a file part the SDK way (raw bytes) goes through; a media type not accepted raises ContentTypeNotSupportedError (400)', async () => {
    const contextId = `ctx-rest-file-${Date.now()}`;
    const task = await send('read the notes', { contextId, files: [sdkFile(Buffer.from('buy milk'), 'notes.txt', 'text/plain')] });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const { lines } = await gw.app.get<SessionStore>(SESSION_STORE).history(`agent:main:a2a:default:direct:hermes:${contextId}`);
    expect(lines.find((l) => l.role === 'user')?.text).toContain(
      '[Attachment 1 of 1 "notes.txt" (text/plain, 8 bytes):]\n```\nbuy milk\n```',
    );
    const refused = await send('look', { files: [sdkFile(Buffer.from('GIF89a'), 'a.gif', 'image/gif')] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ContentTypeNotSupportedError);
    expect(refused).toMatchObject({ statusCode: 400 });
  });

  it('a tenant goes in the path prefix, which the gateway accepts and ignores as it does over JSON-RPC', async () => {
    const task = await send('for tenant acme', { tenant: 'acme' });
    expect(artifactText(task)).toBe('[main] for tenant acme');
    expect(seen.at(-1)!.url).toBe(`${gw.url}/a2a/v1/acme/message:send`);
  });

  it('the refused operations reach the SDK as its typed errors: push for a peer without pushUrls, version', async () => {
    const rest = await transport();
    const own = await rest.sendMessage(sdkSendRequest('a task to be notified about'));
    const taskId = 'status' in own ? own.id : '';
    expect(taskId).not.toBe('');
    const push = await rest
      .createTaskPushNotificationConfig({
        tenant: '',
        id: '',
        taskId,
        url: 'https://peer.example/hook',
        token: '',
        authentication: undefined,
      })
      .catch((e: unknown) => e);
    expect(push).toBeInstanceOf(PushNotificationNotSupportedError);
    const version = await rest.getTask({ tenant: '', id: 'x' }, { serviceParameters: { 'A2A-Version': '99.0' } }).catch((e: unknown) => e);
    expect(version).toBeInstanceOf(VersionNotSupportedError);
    expect(version).toMatchObject({ statusCode: 400, metadata: { requestedVersion: '99.0' } });
  });
});
