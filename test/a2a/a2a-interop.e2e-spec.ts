import { TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { ContentTypeNotSupportedError, TaskNotCancelableError, TaskNotFoundError } from '@a2a-js/sdk/errors';
import { SESSION_STORE, SessionStore } from '../../src/modules/sessions/session-store.port';
import { artifactText, fetchWithToken, SeenRequest, sdkClient, sdkFile, sendTask, SendOptions } from '../support/a2a-sdk';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/**
 * Interop with a real third-party A2A 1.0 client: `@a2a-js/sdk` discovers the gateway through its Agent Card,
 * picks the JSON-RPC interface from it and talks to it exactly as it would to any A2A server. The same over the
 * HTTP+JSON interface: a2a-rest-interop.e2e-spec.ts.
 */

// The SDK's CommonJS build loads jose (ESM-only) at the top for card signatures, which jest's CommonJS sandbox
// cannot require; signatures are not used here, so an empty stand-in is enough.
jest.mock('jose', () => ({}));

const HERMES = 'hermes-token-3f9c2e7a1b';

describe('A2A interop with the @a2a-js/sdk client (e2e, echo model)', () => {
  let gw: TestGateway;
  let client: Client;
  const seen: SeenRequest[] = [];
  const send = (t: string, options: SendOptions = {}): Promise<Task> => sendTask(client, t, options);

  beforeAll(async () => {
    gw = await startTestGateway(`{
      agents: { list: [{ id: "main", default: true, identity: { name: "Main Bot" } }] },
      channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { hermes: { token: "${HERMES}" } } } },
    }`);
    // The peer's credential travels the way a deployment would add it: a fetch that sets the header.
    client = await sdkClient(gw.url, fetchWithToken(HERMES, seen), 'JSONRPC');
  });
  afterAll(() => gw?.stop());

  it('resolves our Agent Card and selects the JSON-RPC 1.0 interface from it', async () => {
    const card = await client.getAgentCard();
    expect(card.name).toBe('Main Bot');
    // JSON-RPC is listed first, so the SDK picks it over the HTTP+JSON interface at the same URL.
    expect(card.supportedInterfaces).toEqual([
      { url: `${gw.url}/a2a/v1`, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
      { url: `${gw.url}/a2a/v1`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', tenant: '' },
    ]);
    expect(card.capabilities).toMatchObject({ streaming: true, pushNotifications: true, extendedAgentCard: true });
    expect(card.skills.map((s) => s.id)).toEqual(['main']);
    expect(card.securitySchemes.bearer.scheme).toEqual({
      $case: 'httpAuthSecurityScheme',
      value: expect.objectContaining({ scheme: 'Bearer' }),
    });
  });

  it('SendMessage (blocking) completes with the echo reply in the artifact', async () => {
    const task = await send('hello from the sdk');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(task)).toBe('[main] hello from the sdk');
    expect(task.contextId).toMatch(/^ctx-[0-9a-f-]{36}$/);
    const rpc = seen.filter((s) => s.url.endsWith('/a2a/v1'));
    expect(rpc.length).toBeGreaterThan(0);
    expect(rpc.every((s) => s.headers.get('A2A-Version') === '1.0')).toBe(true);
  });

  it('returnImmediately answers WORKING, then GetTask reaches COMPLETED', async () => {
    const task = await send('poll me', { returnImmediately: true });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect(task.artifacts).toEqual([]);
    let latest = task;
    for (let i = 0; i < 200 && latest.status?.state === TaskState.TASK_STATE_WORKING; i++) {
      await new Promise((r) => setTimeout(r, 10));
      latest = await client.getTask({ tenant: '', id: task.id });
    }
    expect(latest.id).toBe(task.id);
    expect(latest.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(latest)).toBe('[main] poll me');
  });

  it('GetTask of an unknown id raises the SDK TaskNotFoundError', async () => {
    const error = await client.getTask({ tenant: '', id: 'no-such-task' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskNotFoundError);
  });

  it('the same contextId twice continues one session (two user lines in its transcript)', async () => {
    const contextId = `ctx-interop-${Date.now()}`;
    const first = await send('first turn', { contextId });
    const second = await send('second turn', { contextId });
    expect([first.contextId, second.contextId]).toEqual([contextId, contextId]);
    expect(artifactText(second)).toBe('[main] second turn');
    const sessions = gw.app.get<SessionStore>(SESSION_STORE);
    const { lines } = await sessions.history(`agent:main:a2a:default:direct:hermes:${contextId}`);
    expect(lines.filter((l) => l.role === 'user').map((l) => l.text)).toEqual(['first turn', 'second turn']);
    expect(lines.filter((l) => l.role === 'assistant').map((l) => l.text)).toEqual(['[main] first turn', '[main] second turn']);
  });

  it('ListTasks pages through this peer’s tasks with the SDK’s own request shape, newest first', async () => {
    const contextId = `ctx-list-${Date.now()}`;
    const mine = [];
    for (let i = 0; i < 5; i++) mine.push(await send(`list ${i}`, { contextId }));
    const seen: Task[] = [];
    let pageToken = '';
    do {
      const page = await client.listTasks({
        tenant: '',
        contextId,
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageSize: 2,
        pageToken,
        statusTimestampAfter: undefined,
        includeArtifacts: true,
      });
      expect(page.pageSize).toBe(2);
      expect(page.totalSize).toBe(5);
      seen.push(...page.tasks);
      pageToken = page.nextPageToken;
    } while (pageToken);
    expect(seen.map((t) => t.id).sort()).toEqual(mine.map((t) => t.id).sort());
    expect(seen.map(artifactText).sort()).toEqual(mine.map(artifactText).sort());
  });

  it('sends a file part the SDK way (raw bytes): the agent reads it inline; a media type not accepted raises ContentTypeNotSupportedError', async () => {
    const contextId = `ctx-file-${Date.now()}`;
    const task = await send('read the notes', { contextId, files: [sdkFile(Buffer.from('buy milk'), 'notes.txt', 'text/plain')] });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const { lines } = await gw.app.get<SessionStore>(SESSION_STORE).history(`agent:main:a2a:default:direct:hermes:${contextId}`);
    expect(lines.find((l) => l.role === 'user')?.text).toContain(
      '[Attachment 1 of 1 "notes.txt" (text/plain, 8 bytes):]\n```\nbuy milk\n```',
    );
    await expect(send('look', { files: [sdkFile(Buffer.from('GIF89a'), 'a.gif', 'image/gif')] })).rejects.toBeInstanceOf(
      ContentTypeNotSupportedError,
    );
  });

  it('CancelTask of a finished task raises the SDK TaskNotCancelableError; of an unknown one TaskNotFoundError', async () => {
    const done = await send('already done');
    await expect(client.cancelTask({ tenant: '', id: done.id, metadata: undefined })).rejects.toBeInstanceOf(TaskNotCancelableError);
    await expect(client.cancelTask({ tenant: '', id: 'no-such-task', metadata: undefined })).rejects.toBeInstanceOf(TaskNotFoundError);
  });
});
