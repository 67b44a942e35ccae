import { existsSync } from 'node:fs';
import { TaskState } from '@a2a-js/sdk';
import { Client } from 'pg';
import request from 'supertest';
import { taskDatabasePath } from '../../src/modules/a2a-channel/a2a-task.store';
import { a2aRpc } from '../support/a2a-rpc';
import { artifactText, fetchWithToken, sdkClient, sdkSendRequest, sendTask } from '../support/a2a-sdk';
import { startTestGateway, type TestGateway } from '../support/gateway-harness';
import { startPostgres, type TestPostgres } from './support/postgres';

// The SDK's CommonJS build requires the ESM-only jose for card signatures (unused here): see test/support/a2a-sdk.ts.
jest.mock('jose', () => ({}));
jest.setTimeout(90_000);

const HERMES = 'hermes-token-0123456789abcdef';
const config = `{
  gateway: { state: { backend: "postgres", url: "\${DATABASE_URL}" } },
  agents: { list: [{ id: "main", default: true }] },
  channels: { a2a: { enabled: true, peers: { hermes: { token: "${HERMES}", pushUrls: ["https://push.example.com/*"] } } } },
}`;

/** The gateway with `gateway.state.backend: "postgres"`: A2A tasks in a real PostgreSQL, through the real endpoint. */
describe('A2A tasks on PostgreSQL (system)', () => {
  let postgres: TestPostgres;
  let url: string;
  let gw: TestGateway | undefined;

  beforeAll(async () => {
    postgres = await startPostgres();
    url = await postgres.createDatabase('gateway');
  });
  afterAll(async () => {
    await gw?.stop();
    await postgres?.stop();
  });

  const listAll = async (client: Awaited<ReturnType<typeof sdkClient>>, contextId: string) =>
    client.listTasks({
      tenant: '',
      contextId,
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageSize: 10,
      pageToken: '',
      statusTimestampAfter: undefined,
      includeArtifacts: true,
    });

  it('serves SendMessage, GetTask and ListTasks from PostgreSQL, and finds the tasks after a restart', async () => {
    gw = await startTestGateway(config, { env: { DATABASE_URL: url } });
    const client = await sdkClient(gw.url, fetchWithToken(HERMES), 'JSONRPC');
    const contextId = 'ctx-pg';
    const sent = [];
    for (const text of ['one', 'two', 'three']) sent.push(await sendTask(client, text, { contextId }));
    expect(sent.map((t) => t.status?.state)).toEqual(sent.map(() => TaskState.TASK_STATE_COMPLETED));
    const got = await client.getTask({ tenant: '', id: sent[1].id });
    expect([got.id, artifactText(got)]).toEqual([sent[1].id, artifactText(sent[1])]);
    const page = await listAll(client, contextId);
    expect([page.totalSize, page.tasks.map((t) => t.id)]).toEqual([3, sent.map((t) => t.id).reverse()]);

    // The rows are in the database, and no task database was made in the state dir.
    const db = new Client({ connectionString: url });
    await db.connect();
    const rows = (await db.query('SELECT id FROM tasks ORDER BY seq')).rows as Array<{ id: string }>;
    await db.end();
    expect(rows.map((r) => r.id)).toEqual(sent.map((t) => t.id));
    expect(existsSync(taskDatabasePath(gw.stateDir))).toBe(false);

    gw = await gw.restart();
    const again = await sdkClient(gw.url, fetchWithToken(HERMES), 'JSONRPC');
    const after = await again.getTask({ tenant: '', id: sent[0].id });
    expect([after.status?.state, artifactText(after)]).toEqual([TaskState.TASK_STATE_COMPLETED, artifactText(sent[0])]);
    expect((await listAll(again, contextId)).tasks.map((t) => t.id)).toEqual(sent.map((t) => t.id).reverse());
  });

  it('claims no push notifications on the card, and answers the push methods with PushNotificationNotSupportedError', async () => {
    if (!gw) gw = await startTestGateway(config, { env: { DATABASE_URL: url } });
    const card = await request(gw.url).get('/.well-known/agent-card.json').expect(200);
    expect(card.body.capabilities).toMatchObject({ streaming: true, pushNotifications: false });
    const sent = await a2aRpc(gw.url, HERMES, 'SendMessage', {
      message: { messageId: 'm-push', role: 'ROLE_USER', parts: [{ text: 'hi' }] },
    });
    const taskId = (sent.result as { task: { id: string } }).task.id;
    const create = await a2aRpc(gw.url, HERMES, 'CreateTaskPushNotificationConfig', {
      taskId,
      config: { url: 'https://push.example.com/hook' },
    });
    expect(create.error).toMatchObject({ code: -32003, message: expect.stringContaining('stored in PostgreSQL') });
    const withPush = await a2aRpc(gw.url, HERMES, 'SendMessage', {
      message: { messageId: 'm-push-2', role: 'ROLE_USER', parts: [{ text: 'hi' }] },
      configuration: { taskPushNotificationConfig: { url: 'https://push.example.com/hook' } },
    });
    expect(withPush.error?.code).toBe(-32003);
  });

  it('streams a task from the events it commits to PostgreSQL (SendStreamingMessage)', async () => {
    if (!gw) gw = await startTestGateway(config, { env: { DATABASE_URL: url } });
    const client = await sdkClient(gw.url, fetchWithToken(HERMES), 'JSONRPC');
    const kinds: Array<string | undefined> = [];
    let taskId = '';
    for await (const event of client.sendMessageStream(sdkSendRequest('stream on pg'))) {
      kinds.push(event.payload?.$case);
      if (event.payload?.$case === 'task') taskId = event.payload.value.id;
    }
    expect([kinds[0], kinds.at(-1)]).toEqual(['task', 'statusUpdate']);
    const db = new Client({ connectionString: url });
    await db.connect();
    const stored = (
      await db.query('SELECT e.n FROM task_events e JOIN tasks t ON t.seq = e.task_seq WHERE t.id = $1 ORDER BY e.n', [taskId])
    ).rows as Array<{ n: number }>;
    await db.end();
    // Every event after the task itself came from a committed row, numbered from 1.
    expect(stored.map((r) => r.n)).toEqual(kinds.slice(1).map((_, i) => i + 1));
  });

  it('shares tasks between two gateways (replicas) on one database', async () => {
    if (!gw) gw = await startTestGateway(config, { env: { DATABASE_URL: url } });
    const replica = await startTestGateway(config, { env: { DATABASE_URL: url } });
    try {
      const onFirst = await sendTask(await sdkClient(gw.url, fetchWithToken(HERMES), 'JSONRPC'), 'shared', { contextId: 'ctx-shared' });
      const fromReplica = await (await sdkClient(replica.url, fetchWithToken(HERMES), 'JSONRPC')).getTask({ tenant: '', id: onFirst.id });
      expect([fromReplica.id, fromReplica.status?.state]).toEqual([onFirst.id, TaskState.TASK_STATE_COMPLETED]);
    } finally {
      await replica.stop();
    }
  });

  it('does not start when PostgreSQL is unreachable, naming the host and never the password', async () => {
    const closed = `postgres://clawgate:never-print-this@127.0.0.1:${postgres.port + 1}/gateway`;
    const err = await startTestGateway(config, { env: { DATABASE_URL: closed } }).then(
      (started) => started.stop().then(() => undefined),
      (e: Error) => e,
    );
    expect(err?.message).toMatch(new RegExp(`PostgreSQL at 127\\.0\\.0\\.1:${postgres.port + 1}/gateway is unreachable`));
    expect(err?.message).not.toContain('never-print-this');
  });
});
